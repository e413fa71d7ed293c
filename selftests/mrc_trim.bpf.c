// SPDX-License-Identifier: GPL-2.0
/*
 * mrc_trim.bpf.c - a "trimming switch" port for the fabric selftests: a tc
 * (clsact, direct-action) program that cuts the payload of mrc DATA
 * packets and forwards their headers, the way a congested Ultra Ethernet
 * switch trims instead of dropping.  The receiver sees a DATA packet
 * shorter than its message layout allows and answers with a NACK
 * (reason "trimmed").
 *
 * IPv4 over Ethernet only, UDP destination port 4796 (the default);
 * sections "trim/all" (every DATA packet) and "trim/quarter" (one in four,
 * at random).  The UDP checksum is cleared (legal over IPv4), the IPv4
 * total length and header checksum updated.
 *
 *   tc qdisc add dev b0 clsact
 *   tc filter add dev b0 egress bpf da obj mrc_trim.bpf.o sec trim/quarter
 *
 * Built with clang -target bpf; needs no libbpf headers.
 */
#include <stddef.h>
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/pkt_cls.h>
#include <linux/udp.h>

/* No kernel or libbpf headers here: their macros, spelled out. */
#define SEC(name) __attribute__((section(name), used))
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define mrc_htons(x) ((__be16)__builtin_bswap16(x))
#else
#define mrc_htons(x) ((__be16)(x))
#endif

static long (*bpf_skb_load_bytes)(const struct __sk_buff *skb, __u32 off,
				  void *to, __u32 len) =
	(void *)BPF_FUNC_skb_load_bytes;
static long (*bpf_skb_store_bytes)(struct __sk_buff *skb, __u32 off,
				   const void *from, __u32 len, __u64 flags) =
	(void *)BPF_FUNC_skb_store_bytes;
static long (*bpf_l3_csum_replace)(struct __sk_buff *skb, __u32 off,
				   __u64 from, __u64 to, __u64 size) =
	(void *)BPF_FUNC_l3_csum_replace;
static long (*bpf_skb_change_tail)(struct __sk_buff *skb, __u32 len,
				   __u64 flags) =
	(void *)BPF_FUNC_skb_change_tail;
static __u32 (*bpf_get_prandom_u32)(void) = (void *)BPF_FUNC_get_prandom_u32;

#define MRC_PORT	4796
#define MRC_TYPE_DATA	5
#define MRC_DATA_HDRS	36	/* common header (12) + DATA header (24) */
#define MRC_ACK_PART	64	/* with flag 0x0002: an ACK part follows */
#define L2		sizeof(struct ethhdr)
#define L3		sizeof(struct iphdr)	/* no IP options */
#define L4		sizeof(struct udphdr)
#define TRIMMED_LEN	(L2 + L3 + L4 + MRC_DATA_HDRS)

static __always_inline int mrc_trim(struct __sk_buff *skb, __u32 one_in)
{
	struct ethhdr eth;
	struct iphdr ip;
	struct udphdr udp;
	__u8 mrc[4];	/* version, type, flags */
	__u32 hdrs;
	__be16 len;

	if (skb->len <= TRIMMED_LEN)
		return TC_ACT_OK;
	if (bpf_skb_load_bytes(skb, 0, &eth, sizeof(eth)) ||
	    eth.h_proto != mrc_htons(ETH_P_IP) ||
	    bpf_skb_load_bytes(skb, L2, &ip, sizeof(ip)) ||
	    ip.ihl != 5 || ip.protocol != IPPROTO_UDP ||
	    (ip.frag_off & mrc_htons(0x3fff)) ||
	    bpf_skb_load_bytes(skb, L2 + L3, &udp, sizeof(udp)) ||
	    udp.dest != mrc_htons(MRC_PORT) ||
	    bpf_skb_load_bytes(skb, L2 + L3 + L4, mrc, sizeof(mrc)) ||
	    mrc[1] != MRC_TYPE_DATA)
		return TC_ACT_OK;
	/* The mrc headers stay whole: with an ACK part, 100 bytes. */
	hdrs = MRC_DATA_HDRS + (mrc[3] & 0x02 ? MRC_ACK_PART : 0);
	if (skb->len <= L2 + L3 + L4 + hdrs)
		return TC_ACT_OK;
	if (one_in > 1 && bpf_get_prandom_u32() % one_in)
		return TC_ACT_OK;

	if (bpf_skb_change_tail(skb, L2 + L3 + L4 + hdrs, 0))
		return TC_ACT_OK;
	len = mrc_htons(L3 + L4 + hdrs);
	bpf_l3_csum_replace(skb, L2 + offsetof(struct iphdr, check),
			    ip.tot_len, len, sizeof(len));
	bpf_skb_store_bytes(skb, L2 + offsetof(struct iphdr, tot_len), &len,
			    sizeof(len), 0);
	len = mrc_htons(L4 + hdrs);
	bpf_skb_store_bytes(skb, L2 + L3 + offsetof(struct udphdr, len), &len,
			    sizeof(len), 0);
	len = 0;
	bpf_skb_store_bytes(skb, L2 + L3 + offsetof(struct udphdr, check), &len,
			    sizeof(len), 0);
	return TC_ACT_OK;
}

SEC("trim/all")
int mrc_trim_all(struct __sk_buff *skb)
{
	return mrc_trim(skb, 1);
}

SEC("trim/quarter")
int mrc_trim_quarter(struct __sk_buff *skb)
{
	return mrc_trim(skb, 4);
}

char _license[] SEC("license") = "GPL";
