-- SPDX-License-Identifier: GPL-2.0
--
-- mrc.lua - Wireshark/tshark dissector for the mrc wire format, version 2
-- with capabilities (Documentation/mrc/wire.rst; usage and field list in
-- Documentation/mrc/wireshark.rst).
--
--   tshark -X lua_script:tools/wireshark/mrc.lua -r cap.pcap
--
-- or copy this file into a Wireshark plugin directory.  Fields are named
-- as in wire.rst (mrc.psn, mrc.msg_id, mrc.cum_psn, ...).  The checks, and
-- their order, follow the module's parser, mrc_wire_parse() in
-- drivers/net/mrc/core/wire.c: "mrc.drop" is the drop reason that parser
-- gives the packet ("none": the module would accept it, connection state
-- apart), and a malformed packet gets an expert item named after it.  The
-- IP (and SRv6) layers below are Wireshark's own.

local mrc = Proto("mrc", "Multipath Reliable Connection")

local UDP_PORT_DEFAULT = 4796	-- MRC_UDP_PORT_DEFAULT, include/uapi/linux/mrc.h
local VERSION = 2
local HDR_LEN = 12
local DATA_HDR_LEN = 36		-- header + DATA/CLOSE part
local ACK_PART_LEN = 64
local ACK_LEN = HDR_LEN + ACK_PART_LEN
local REQ_PART_LEN = 24
local RAIL_LEN = 20
local MAX_RAILS = 32
local REQ_WIRE_LEN = HDR_LEN + REQ_PART_LEN + MAX_RAILS * RAIL_LEN	-- 676
local RESET_LEN = 16
local PROBE_LEN = 24
local EV_MAX = 0x3fff
local PLANES = 32
local MIN_PAYLOAD = 64

local T_REQ, T_ACCEPT, T_RESET, T_CLOSE, T_DATA = 1, 2, 3, 4, 5
local T_ACK, T_NACK, T_PROBE, T_PROBE_ACK = 6, 7, 8, 9

local types = {
	[T_REQ] = "REQ", [T_ACCEPT] = "ACCEPT", [T_RESET] = "RESET",
	[T_CLOSE] = "CLOSE", [T_DATA] = "DATA", [T_ACK] = "ACK",
	[T_NACK] = "NACK", [T_PROBE] = "PROBE", [T_PROBE_ACK] = "PROBE_ACK",
}
local nack_reasons = {
	[0] = "none", [1] = "no buffer", [2] = "bad data", [3] = "trimmed",
}
local reset_reasons = {
	[1] = "abort", [2] = "no listener", [3] = "no connection",
	[4] = "protocol", [5] = "backlog", [6] = "timeout",
}
local families = { [4] = "IPv4", [6] = "IPv6" }

-- Flags per type (wire.rst): masks of the known bits.
local F_DATA_MASK, F_REQ_MASK, F_ACK_MASK, F_PROBE_MASK = 0x0007, 0x0003, 0x0001, 0x0001
local F_DATA_ACK, F_DATA_ACK_CE = 0x0002, 0x0004

local f = {
	version = ProtoField.uint8("mrc.version", "Version", base.DEC),
	type = ProtoField.uint8("mrc.type", "Type", base.DEC, types),
	flags = ProtoField.uint16("mrc.flags", "Flags", base.HEX),
	-- DATA/CLOSE
	f_ack_now = ProtoField.bool("mrc.flags.ack_now", "ACK_NOW", 16, nil, 0x0001),
	f_ack = ProtoField.bool("mrc.flags.ack", "ACK (an ACK part follows)", 16, nil, 0x0002),
	f_ack_ce = ProtoField.bool("mrc.flags.ack_ce", "ACK_CE", 16, nil, 0x0004),
	-- ACK/NACK
	f_ce = ProtoField.bool("mrc.flags.ce", "CE", 16, nil, 0x0001),
	-- REQ/ACCEPT: capabilities
	f_ack_data = ProtoField.bool("mrc.flags.ack_data", "ACK_DATA", 16, nil, 0x0001),
	f_host_delay = ProtoField.bool("mrc.flags.host_delay", "HOST_DELAY", 16, nil, 0x0002),
	-- PROBE/PROBE_ACK
	f_challenge = ProtoField.bool("mrc.flags.challenge", "CHALLENGE", 16, nil, 0x0001),
	dst_conn = ProtoField.uint32("mrc.dst_conn", "Destination connection", base.HEX),
	src_conn = ProtoField.uint32("mrc.src_conn", "Source connection", base.HEX),
	-- DATA and CLOSE
	psn = ProtoField.uint32("mrc.psn", "PSN", base.DEC),
	msg_id = ProtoField.uint32("mrc.msg_id", "Message id", base.DEC),
	msg_len = ProtoField.uint32("mrc.msg_len", "Message length", base.DEC),
	offset = ProtoField.uint32("mrc.offset", "Offset", base.DEC),
	ev = ProtoField.uint16("mrc.ev", "Entropy value", base.DEC),
	tx_count = ProtoField.uint8("mrc.tx_count", "Transmission count", base.DEC),
	reserved = ProtoField.bytes("mrc.reserved", "Reserved"),
	ack_part = ProtoField.none("mrc.ack_part", "ACK part"),
	payload = ProtoField.bytes("mrc.payload", "Payload"),
	payload_len = ProtoField.uint32("mrc.payload_len", "Payload length", base.DEC),
	-- ACK and NACK (and a DATA packet's ACK part)
	cum_psn = ProtoField.uint32("mrc.cum_psn", "Cumulative PSN", base.DEC),
	sack_base = ProtoField.uint32("mrc.sack_base", "SACK base", base.DEC),
	sack = ProtoField.bytes("mrc.sack", "SACK bitmap"),
	sack_count = ProtoField.uint32("mrc.sack_count", "PSNs in the SACK bitmap", base.DEC),
	trig_psn = ProtoField.uint32("mrc.trig_psn", "Trigger PSN", base.DEC),
	trig_ev = ProtoField.uint16("mrc.trig_ev", "Trigger EV", base.DEC),
	trig_tx = ProtoField.uint8("mrc.trig_tx", "Trigger tx_count", base.DEC),
	nack_reason = ProtoField.uint8("mrc.nack_reason", "NACK reason", base.DEC, nack_reasons),
	ce_count = ProtoField.uint32("mrc.ce_count", "CE count", base.DEC),
	rwnd_psn = ProtoField.uint32("mrc.rwnd_psn", "Credit (rwnd PSN)", base.DEC),
	ack_delay_us = ProtoField.uint32("mrc.ack_delay_us", "ACK delay (us)", base.DEC),
	host_delay_us = ProtoField.uint32("mrc.host_delay_us", "Host delay (us)", base.DEC),
	-- REQ and ACCEPT
	dst_port = ProtoField.uint16("mrc.dst_port", "Destination mrc port", base.DEC),
	src_port = ProtoField.uint16("mrc.src_port", "Source mrc port", base.DEC),
	isn = ProtoField.uint32("mrc.isn", "ISN", base.DEC),
	rwnd = ProtoField.uint32("mrc.rwnd", "Initial credit (packets)", base.DEC),
	max_payload = ProtoField.uint16("mrc.max_payload", "Max payload", base.DEC),
	n_rails = ProtoField.uint8("mrc.n_rails", "Rails", base.DEC),
	max_msg_size = ProtoField.uint32("mrc.max_msg_size", "Max message size", base.DEC),
	echo = ProtoField.uint32("mrc.echo", "Echo (the REQ's ISN)", base.DEC),
	rail = ProtoField.none("mrc.rail", "Rail"),
	rail_plane = ProtoField.uint8("mrc.rail.plane", "Plane", base.DEC),
	rail_family = ProtoField.uint8("mrc.rail.family", "Family", base.DEC, families),
	rail_addr = ProtoField.bytes("mrc.rail.addr", "Address"),
	rail_ipv4 = ProtoField.ipv4("mrc.rail.ipv4", "IPv4 address"),
	rail_ipv6 = ProtoField.ipv6("mrc.rail.ipv6", "IPv6 address"),
	padding = ProtoField.bytes("mrc.padding", "Padding"),
	-- RESET
	reason = ProtoField.uint32("mrc.reason", "Reason", base.DEC, reset_reasons),
	-- PROBE and PROBE_ACK
	seq = ProtoField.uint32("mrc.seq", "Sequence", base.DEC),
	stamp = ProtoField.uint32("mrc.stamp", "Stamp", base.DEC),
	challenge = ProtoField.uint64("mrc.challenge", "Challenge", base.HEX),
	-- what the module's parser would do with the packet
	drop = ProtoField.string("mrc.drop", "Drop reason"),
}
mrc.fields = f

-- Expert info, one per drop reason of the parser (wire.rst, "Drop reasons").
local ex = {
	short = ProtoExpert.new("mrc.short", "Shorter than the mrc header",
		expert.group.MALFORMED, expert.severity.ERROR),
	version = ProtoExpert.new("mrc.version.unknown", "Unknown mrc version",
		expert.group.MALFORMED, expert.severity.ERROR),
	type = ProtoExpert.new("mrc.type.unknown", "Unknown mrc packet type",
		expert.group.MALFORMED, expert.severity.ERROR),
	reserved = ProtoExpert.new("mrc.reserved.set", "Reserved bit or field set",
		expert.group.MALFORMED, expert.severity.ERROR),
	length = ProtoExpert.new("mrc.length.bad", "Length does not match the type",
		expert.group.MALFORMED, expert.severity.ERROR),
	["bad-field"] = ProtoExpert.new("mrc.bad_field", "Field out of range",
		expert.group.MALFORMED, expert.severity.ERROR),
	-- not a drop reason: the capture has less of the packet than it had
	truncated = ProtoExpert.new("mrc.truncated",
		"Packet size limited during capture: the rest is not decoded",
		expert.group.UNDECODED, expert.severity.NOTE),
}
mrc.experts = { ex.short, ex.version, ex.type, ex.reserved, ex.length, ex["bad-field"],
	ex.truncated }

mrc.prefs.udp_port = Pref.uint("UDP port", UDP_PORT_DEFAULT,
	"UDP destination port of mrc (the mrc device's udp-port)")

-- A malformed packet: the first problem, as mrc_wire_parse() finds it.
local function bad(st, why, item, text)
	if st.why then
		return
	end
	st.why = why
	local e = ex[why]
	if item then
		item:add_proto_expert_info(e, text)
	else
		st.root:add_proto_expert_info(e, text)
	end
end

local function flags_tree(tree, tvb, typ)
	local fi = tree:add(f.flags, tvb(2, 2))
	if typ == T_DATA or typ == T_CLOSE then
		fi:add(f.f_ack_now, tvb(2, 2))
		fi:add(f.f_ack, tvb(2, 2))
		fi:add(f.f_ack_ce, tvb(2, 2))
	elseif typ == T_ACK or typ == T_NACK then
		fi:add(f.f_ce, tvb(2, 2))
	elseif typ == T_REQ or typ == T_ACCEPT then
		fi:add(f.f_ack_data, tvb(2, 2))
		fi:add(f.f_host_delay, tvb(2, 2))
	elseif typ == T_PROBE or typ == T_PROBE_ACK then
		fi:add(f.f_challenge, tvb(2, 2))
	end
	return fi
end

local function popcount(x)
	local n = 0
	while x ~= 0 do
		n = n + (x % 2)
		x = math.floor(x / 2)
	end
	return n
end

-- An ACK's part at @off (64 bytes), on its own or on DATA: check_ack().
local function ack_part(st, tvb, tree, off, nack)
	tree:add(f.cum_psn, tvb(off, 4))
	tree:add(f.sack_base, tvb(off + 4, 4))
	local sack = tree:add(f.sack, tvb(off + 8, 32))
	local n = 0
	for i = 0, 15 do
		n = n + popcount(tvb(off + 8 + 2 * i, 2):uint())
	end
	sack:add(f.sack_count, n):set_generated()
	tree:add(f.trig_psn, tvb(off + 40, 4))
	local tev = tree:add(f.trig_ev, tvb(off + 44, 2))
	tree:add(f.trig_tx, tvb(off + 46, 1))
	local nr = tree:add(f.nack_reason, tvb(off + 47, 1))
	tree:add(f.ce_count, tvb(off + 48, 4))
	tree:add(f.rwnd_psn, tvb(off + 52, 4))
	tree:add(f.ack_delay_us, tvb(off + 56, 4))
	tree:add(f.host_delay_us, tvb(off + 60, 4))

	local reason = tvb(off + 47, 1):uint()
	if not nack then
		if reason ~= 0 then
			bad(st, "bad-field", nr, "an ACK's nack_reason must be 0")
		end
	elseif reason == 0 or reason > 3 then
		bad(st, "bad-field", nr, "a NACK's reason must be 1..3")
	end
	if tvb(off + 44, 2):uint() > EV_MAX then
		bad(st, "bad-field", tev, "trig_ev above 2^14 - 1")
	end
	return string.format(" cum=%u trig=%u/%u", tvb(off, 4):uint(),
		tvb(off + 40, 4):uint(), tvb(off + 46, 1):uint())
end

-- parse_data()
local function dissect_data(st, tvb, tree, typ, flags, len)
	local hdr = DATA_HDR_LEN
	if bit.band(flags, F_DATA_ACK) ~= 0 then
		hdr = DATA_HDR_LEN + ACK_PART_LEN
	end
	if len < DATA_HDR_LEN then
		bad(st, "length", nil, string.format("%u bytes, a %s has %u of headers",
			len, types[typ], DATA_HDR_LEN))
		return ""
	end
	tree:add(f.psn, tvb(12, 4))
	local mid = tree:add(f.msg_id, tvb(16, 4))
	local ml = tree:add(f.msg_len, tvb(20, 4))
	local mo = tree:add(f.offset, tvb(24, 4))
	local evi = tree:add(f.ev, tvb(28, 2))
	tree:add(f.tx_count, tvb(30, 1))
	local r1 = tree:add(f.reserved, tvb(31, 1))
	local r2 = tree:add(f.reserved, tvb(32, 4))
	local psn, msg_id = tvb(12, 4):uint(), tvb(16, 4):uint()
	local msg_len, offset = tvb(20, 4):uint(), tvb(24, 4):uint()
	local info = string.format(" psn=%u msg=%u", psn, msg_id)
	if typ == T_DATA then
		info = info .. string.format(" off=%u/%u", offset, msg_len)
	end
	if tvb(30, 1):uint() > 0 then
		info = info .. string.format(" tx=%u", tvb(30, 1):uint())
	end

	if len < hdr then
		bad(st, "length", nil, string.format("%u bytes, headers with the ACK part %u",
			len, hdr))
		return info
	end
	local payload = len - hdr
	if typ == T_CLOSE and payload > 0 then
		bad(st, "length", nil, "a CLOSE has no payload")
	end
	if bit.band(flags, bit.bnot(F_DATA_MASK)) ~= 0 then
		bad(st, "reserved", st.flags_item, "undefined flag")
	end
	if (bit.band(flags, F_DATA_ACK_CE) ~= 0 and bit.band(flags, F_DATA_ACK) == 0) or
	   (bit.band(flags, F_DATA_ACK) ~= 0 and typ == T_CLOSE) then
		bad(st, "reserved", st.flags_item, "ACK_CE without ACK, or ACK on a CLOSE")
	end
	if tvb(31, 1):uint() ~= 0 then
		bad(st, "reserved", r1, "reserved byte set")
	end
	if tvb(32, 4):uint() ~= 0 then
		bad(st, "reserved", r2, "reserved word set")
	end
	if hdr > DATA_HDR_LEN then
		local at = tree:add(f.ack_part, tvb(DATA_HDR_LEN, ACK_PART_LEN))
		info = info .. " +ACK" .. ack_part(st, tvb, at, DATA_HDR_LEN, false)
	end
	if tvb(28, 2):uint() > EV_MAX then
		bad(st, "bad-field", evi, "ev above 2^14 - 1")
	end
	if typ == T_CLOSE then
		if msg_len ~= 0 or offset ~= 0 then
			bad(st, "bad-field", ml, "a CLOSE has msg_len and offset 0")
		end
	elseif msg_len == 0 or offset >= msg_len or payload > msg_len - offset then
		bad(st, "bad-field", mo, "the segment does not fit its message")
	end
	if payload > 0 then
		local avail = tvb:len() - hdr
		if avail > 0 then
			tree:add(f.payload, tvb(hdr, math.min(avail, payload)))
		end
	end
	tree:add(f.payload_len, payload):set_generated()
	if typ == T_DATA then
		info = info .. string.format(" len=%u", payload)
	end
	return info
end

-- parse_ack()
local function dissect_ack(st, tvb, tree, typ, flags, len)
	if len ~= ACK_LEN then
		bad(st, "length", nil, string.format("%u bytes, an %s has %u", len,
			types[typ], ACK_LEN))
		if len < ACK_LEN then
			return ""
		end
	end
	if bit.band(flags, bit.bnot(F_ACK_MASK)) ~= 0 then
		bad(st, "reserved", st.flags_item, "undefined flag")
	end
	local info = ack_part(st, tvb, tree, HDR_LEN, typ == T_NACK)
	if typ == T_NACK then
		info = info .. " reason=" .. (nack_reasons[tvb(59, 1):uint()] or "?")
	end
	return info
end

-- check_rail()
local function dissect_rail(st, tvb, tree, off, i)
	local rt = tree:add(f.rail, tvb(off, RAIL_LEN))
	local plane, fam = tvb(off, 1):uint(), tvb(off + 1, 1):uint()
	local pi = rt:add(f.rail_plane, tvb(off, 1))
	local fi = rt:add(f.rail_family, tvb(off + 1, 1))
	local ri = rt:add(f.reserved, tvb(off + 2, 2))
	rt:add(f.rail_addr, tvb(off + 4, 16))
	if fam == 4 then
		rt:add(f.rail_ipv4, tvb(off + 4, 4))
		rt:append_text(string.format(" %u: plane %u %s", i, plane,
			tostring(tvb(off + 4, 4):ipv4())))
	elseif fam == 6 then
		rt:add(f.rail_ipv6, tvb(off + 4, 16))
		rt:append_text(string.format(" %u: plane %u %s", i, plane,
			tostring(tvb(off + 4, 16):ipv6())))
	end
	if tvb(off + 2, 2):uint() ~= 0 then
		bad(st, "reserved", ri, "reserved field set")
	end
	if fam == 4 then
		for j = 8, 19 do
			if tvb(off + j, 1):uint() ~= 0 then
				bad(st, "reserved", rt, "IPv4 address with bytes after the 4th")
				break
			end
		end
	elseif fam ~= 6 then
		bad(st, "bad-field", fi, "family must be 4 or 6")
	end
	if plane >= PLANES then
		bad(st, "bad-field", pi, "plane above 31")
	end
end

-- parse_req()
local function dissect_req(st, tvb, tree, typ, flags, len, dst_conn)
	local is_req = typ == T_REQ
	if len < HDR_LEN + REQ_PART_LEN then
		bad(st, "length", nil, string.format("%u bytes, shorter than a %s's part",
			len, types[typ]))
		return ""
	end
	tree:add(f.dst_port, tvb(12, 2))
	tree:add(f.src_port, tvb(14, 2))
	local isn_i = tree:add(f.isn, tvb(16, 4))
	tree:add(f.rwnd, tvb(20, 4))
	local mp = tree:add(f.max_payload, tvb(24, 2))
	local nr = tree:add(f.n_rails, tvb(26, 1))
	local ri = tree:add(f.reserved, tvb(27, 1))
	local mm = tree:add(f.max_msg_size, tvb(28, 4))
	local ei = tree:add(f.echo, tvb(32, 4))
	local n = tvb(26, 1):uint()
	local isn, echo = tvb(16, 4):uint(), tvb(32, 4):uint()
	local info = string.format(" port %u->%u isn=%u rails=%u", tvb(14, 2):uint(),
		tvb(12, 2):uint(), isn, n)
	if not is_req then
		info = info .. string.format(" echo=%u", echo)
	end

	local want = is_req and REQ_WIRE_LEN or HDR_LEN + REQ_PART_LEN + n * RAIL_LEN
	if len ~= want then
		bad(st, "length", nil, string.format("%u bytes, this %s has %u", len,
			types[typ], want))
	end
	-- The rails that are within the packet.
	local fit = math.min(n, math.floor((len - HDR_LEN - REQ_PART_LEN) / RAIL_LEN))
	if st.why then
		-- a wrong length: show what fits, check nothing else
		for i = 0, fit - 1 do
			dissect_rail(st, tvb, tree, HDR_LEN + REQ_PART_LEN + i * RAIL_LEN, i)
		end
		return info
	end
	if not is_req and bit.band(flags, bit.bnot(F_REQ_MASK)) ~= 0 then
		bad(st, "reserved", st.flags_item, "unknown capability in an ACCEPT")
	end
	if tvb(27, 1):uint() ~= 0 then
		bad(st, "reserved", ri, "reserved byte set")
	end
	if is_req and echo ~= 0 then
		bad(st, "reserved", ei, "a REQ's echo is reserved")
	end
	if n < 1 or n > MAX_RAILS then
		bad(st, "bad-field", nr, "n_rails must be 1..32")
	end
	local rails_end = HDR_LEN + REQ_PART_LEN + fit * RAIL_LEN
	if is_req and rails_end < len then
		local pad = tree:add(f.padding, tvb(rails_end, len - rails_end))
		for i = rails_end, len - 1 do
			if tvb(i, 1):uint() ~= 0 then
				bad(st, "reserved", pad, "a REQ's padding is zero")
				break
			end
		end
	end
	if tvb(24, 2):uint() < MIN_PAYLOAD then
		bad(st, "bad-field", mp, "max_payload below 64")
	end
	if tvb(28, 4):uint() == 0 then
		bad(st, "bad-field", mm, "max_msg_size 0")
	end
	if is_req and dst_conn ~= 0 then
		bad(st, "bad-field", st.dst_item, "a REQ's dst_conn is 0")
	end
	if is_req and isn == 0 then
		bad(st, "bad-field", isn_i, "a REQ's isn is never 0")
	elseif not is_req and echo == 0 then
		bad(st, "bad-field", ei, "an ACCEPT's echo is never 0")
	end
	for i = 0, fit - 1 do
		dissect_rail(st, tvb, tree, HDR_LEN + REQ_PART_LEN + i * RAIL_LEN, i)
	end
	return info
end

-- parse_reset()
local function dissect_reset(st, tvb, tree, flags, len)
	if len ~= RESET_LEN then
		bad(st, "length", nil, string.format("%u bytes, a RESET has %u", len, RESET_LEN))
		if len < RESET_LEN then
			return ""
		end
	end
	local ri = tree:add(f.reason, tvb(12, 4))
	local reason = tvb(12, 4):uint()
	if flags ~= 0 then
		bad(st, "reserved", st.flags_item, "a RESET has no flags")
	end
	if reason < 1 or reason > 6 then
		bad(st, "bad-field", ri, "reason must be 1..6")
	end
	return " reason=" .. (reset_reasons[reason] or tostring(reason))
end

-- parse_probe()
local function dissect_probe(st, tvb, tree, flags, len)
	if len ~= PROBE_LEN then
		bad(st, "length", nil, string.format("%u bytes, a probe has %u", len, PROBE_LEN))
		if len < PROBE_LEN then
			return ""
		end
	end
	tree:add(f.seq, tvb(12, 4))
	local evi = tree:add(f.ev, tvb(16, 2))
	local ri = tree:add(f.reserved, tvb(18, 2))
	tree:add(f.stamp, tvb(20, 4))
	local info = string.format(" seq=%u ev=%u", tvb(12, 4):uint(), tvb(16, 2):uint())
	if bit.band(flags, 0x0001) ~= 0 then
		tree:add(f.challenge, tvb(12, 4):uint64() * 4294967296 +
			tvb(20, 4):uint64()):set_generated()
		info = " challenge"
	end
	if bit.band(flags, bit.bnot(F_PROBE_MASK)) ~= 0 then
		bad(st, "reserved", st.flags_item, "undefined flag")
	end
	if tvb(18, 2):uint() ~= 0 then
		bad(st, "reserved", ri, "reserved field set")
	end
	if tvb(16, 2):uint() > EV_MAX then
		bad(st, "bad-field", evi, "ev above 2^14 - 1")
	end
	return info
end

local dissect_body

function mrc.dissector(tvb, pinfo, root)
	local len = tvb:reported_len()
	pinfo.cols.protocol = "MRC"
	local tree = root:add(mrc, tvb())
	local st = { root = tree }

	if len < HDR_LEN then
		bad(st, "short", nil, string.format("%u bytes, the header has %u", len, HDR_LEN))
		tree:add(f.drop, st.why):set_generated()
		pinfo.cols.info = "mrc (short)"
		return len
	end
	local ok, err = pcall(dissect_body, st, tvb, pinfo, tree, len)
	if not ok then
		if tvb:len() >= len then
			error(err)
		end
		-- a capture cut short (snaplen): what was captured is shown
		tree:add_proto_expert_info(ex.truncated)
		tree:add(f.drop, "not captured"):set_generated()
	end
	return len
end

dissect_body = function(st, tvb, pinfo, tree, len)
	local vi = tree:add(f.version, tvb(0, 1))
	local ti = tree:add(f.type, tvb(1, 1))
	local ver, typ, flags = tvb(0, 1):uint(), tvb(1, 1):uint(), tvb(2, 2):uint()
	st.flags_item = flags_tree(tree, tvb, typ)
	st.dst_item = tree:add(f.dst_conn, tvb(4, 4))
	tree:add(f.src_conn, tvb(8, 4))
	local dst_conn, src_conn = tvb(4, 4):uint(), tvb(8, 4):uint()
	local name = types[typ] or string.format("type %u", typ)
	local info = ""
	-- (kept if the capture ends before the packet: snaplen)
	pinfo.cols.info = string.format("%s %08x->%08x [not captured whole]", name, src_conn,
		dst_conn)

	if ver ~= VERSION then
		bad(st, "version", vi, string.format("version %u, this dissector knows %u",
			ver, VERSION))
	elseif not types[typ] then
		bad(st, "type", ti, string.format("unknown type %u", typ))
	elseif typ == T_DATA or typ == T_CLOSE then
		info = dissect_data(st, tvb, tree, typ, flags, len)
	elseif typ == T_ACK or typ == T_NACK then
		info = dissect_ack(st, tvb, tree, typ, flags, len)
	elseif typ == T_REQ or typ == T_ACCEPT then
		info = dissect_req(st, tvb, tree, typ, flags, len, dst_conn)
	elseif typ == T_RESET then
		info = dissect_reset(st, tvb, tree, flags, len)
	else
		info = dissect_probe(st, tvb, tree, flags, len)
	end
	-- Connection ids: only a REQ does not know its receiver's yet.
	if src_conn == 0 then
		bad(st, "bad-field", tree, "src_conn is never 0")
	elseif typ ~= T_REQ and dst_conn == 0 then
		bad(st, "bad-field", st.dst_item, "dst_conn is 0 only in a REQ")
	end

	tree:append_text(", " .. name)
	tree:add(f.drop, st.why or "none"):set_generated()
	pinfo.cols.info = string.format("%s %08x->%08x%s%s", name, src_conn, dst_conn, info,
		st.why and (" [" .. st.why .. "]") or "")
end

-- UDP: the port of the preference, and "Decode As" for any other.
local udp_table = DissectorTable.get("udp.port")
local registered = mrc.prefs.udp_port

udp_table:add(registered, mrc)

function mrc.prefs_changed()
	if registered ~= mrc.prefs.udp_port then
		if registered ~= 0 then
			udp_table:remove(registered, mrc)
		end
		registered = mrc.prefs.udp_port
		if registered ~= 0 then
			udp_table:add(registered, mrc)
		end
	end
end
