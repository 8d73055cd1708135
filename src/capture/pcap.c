/*
 * pcap.c - a minimal writer of classic pcap files (link type Ethernet) for
 * IPX packets; see pcap.h. Writing the format by hand is 60 lines, where
 * libpcap would add a run-time dependency to every ipxlab binary for the
 * same two structs.
 */
#include "ipxlab/priv/pcap.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"

#define LINKTYPE_ETHERNET 1
#define SNAPLEN 65535

#define LINKTYPE_LINUX_SLL 113

struct ipx_pcap {
	FILE *f;
	size_t snaplen;
	bool cooked;		/* Linux cooked records (direction marked) */
	uint64_t records;
};

static void put32le(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

int ipx_pcap_open(const char *path, struct ipx_pcap **out, char *err,
		  size_t errlen)
{
	return ipx_pcap_open_snap(path, 0, out, err, errlen);
}

int ipx_pcap_open_snap(const char *path, size_t snaplen,
		       struct ipx_pcap **out, char *err, size_t errlen)
{
	struct ipx_pcap *pc = calloc(1, sizeof(*pc));
	uint8_t gh[24] = { 0 };

	if (!pc)
		return IPX_ENOMEM;
	pc->f = fopen(path, "wb");
	if (!pc->f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		free(pc);
		return IPX_EIO;
	}
	put32le(gh, 0xA1B2C3D4);	/* magic: microsecond timestamps */
	ipx_put16le(gh + 4, 2);		/* version 2.4 */
	ipx_put16le(gh + 6, 4);
	pc->snaplen = snaplen && snaplen < SNAPLEN ? snaplen : SNAPLEN;
	put32le(gh + 16, (uint32_t)pc->snaplen);
	put32le(gh + 20, LINKTYPE_ETHERNET);
	if (fwrite(gh, sizeof(gh), 1, pc->f) != 1) {
		snprintf(err, errlen, "%s: write error", path);
		fclose(pc->f);
		free(pc);
		return IPX_EIO;
	}
	*out = pc;
	return IPX_OK;
}

/* One record: the header, then up to two pieces of data. */
static int write_record(struct ipx_pcap *pc, ipx_time when, const uint8_t *a,
			size_t alen, const uint8_t *b, size_t blen)
{
	uint8_t rh[16];
	size_t orig = alen + blen;

	if (orig > SNAPLEN)
		return IPX_ETOOBIG;
	if (orig > pc->snaplen) {	/* keep the first snaplen bytes */
		alen = alen < pc->snaplen ? alen : pc->snaplen;
		blen = pc->snaplen - alen < blen ? pc->snaplen - alen : blen;
	}
	put32le(rh, (uint32_t)(when / IPX_SEC));
	put32le(rh + 4, (uint32_t)(when % IPX_SEC));
	put32le(rh + 8, (uint32_t)(alen + blen));
	put32le(rh + 12, (uint32_t)orig);
	pc->records++;
	if (fwrite(rh, sizeof(rh), 1, pc->f) != 1 ||
	    (alen && fwrite(a, alen, 1, pc->f) != 1) ||
	    (blen && fwrite(b, blen, 1, pc->f) != 1))
		return IPX_EIO;
	return IPX_OK;
}

int ipx_pcap_write(struct ipx_pcap *pc, ipx_time when,
		   const uint8_t dst[IPX_NODE_LEN],
		   const uint8_t src[IPX_NODE_LEN], const uint8_t *pkt,
		   size_t len)
{
	uint8_t eth[14];

	memcpy(eth, dst, IPX_NODE_LEN);
	memcpy(eth + 6, src, IPX_NODE_LEN);
	ipx_put16(eth + 12, 0x8137);
	return write_record(pc, when, eth, sizeof(eth), pkt, len);
}

int ipx_pcap_cooked(struct ipx_pcap *pc)
{
	uint8_t lt[4];

	if (pc->records)
		return IPX_EINVAL;
	put32le(lt, LINKTYPE_LINUX_SLL);
	if (fseek(pc->f, 20, SEEK_SET) != 0 || fwrite(lt, 4, 1, pc->f) != 1 ||
	    fseek(pc->f, 0, SEEK_END) != 0)
		return IPX_EIO;
	pc->cooked = true;
	return IPX_OK;
}

bool ipx_pcap_is_cooked(const struct ipx_pcap *pc)
{
	return pc->cooked;
}

int ipx_pcap_write_sll(struct ipx_pcap *pc, ipx_time when, bool outgoing,
		       const uint8_t src[IPX_NODE_LEN], uint16_t proto,
		       const uint8_t *data, size_t len)
{
	uint8_t h[16] = { 0 };

	ipx_put16(h, outgoing ? 4 : 0);	/* to us, or sent by us */
	ipx_put16(h + 2, 1);		/* ARPHRD_ETHER */
	ipx_put16(h + 4, IPX_NODE_LEN);
	memcpy(h + 6, src, IPX_NODE_LEN);
	ipx_put16(h + 14, proto);
	return write_record(pc, when, h, sizeof(h), data, len);
}

int ipx_pcap_write_frame(struct ipx_pcap *pc, ipx_time when,
			 const uint8_t *frame, size_t len)
{
	return write_record(pc, when, frame, len, NULL, 0);
}

int ipx_pcap_flush(struct ipx_pcap *pc)
{
	return fflush(pc->f) == 0 ? IPX_OK : IPX_EIO;
}

int ipx_pcap_close(struct ipx_pcap *pc)
{
	int rc;

	if (!pc)
		return IPX_OK;
	rc = fclose(pc->f) == 0 ? IPX_OK : IPX_EIO;
	free(pc);
	return rc;
}
