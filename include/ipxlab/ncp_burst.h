/*
 * ncp_burst.h - NCP packet burst (type 0x7777) as the client (src/ncp)
 * and the server (src/fileserver) both speak it: the 36-byte burst
 * header, the missing-fragment list, the burst request and reply
 * layouts, and a byte map of what part of a burst has arrived.
 * docs/ncp.md ("Packet burst") says what is implemented.
 *
 * Burst header (ncp+0 is the first byte after the IPX header), 36 bytes,
 * every number big-endian:
 *   off size field
 *     0    2 type            0x7777
 *     2    1 flags           NCP_BF_* below
 *     3    1 stream type     2 (big send burst)
 *     4    4 source ID       the sender's burst connection ID
 *     8    4 destination ID  the receiver's (from 0x65)
 *    12    4 packet sequence one more for every packet the sender sends
 *    16    4 delay time      in a client's packets: the gap it asks the
 *                            server to leave between the fragments it
 *                            sends, in 100 us units (Wireshark's unit)
 *    20    2 burst sequence  the burst (request and its reply) number
 *    22    2 ack sequence    requests: the burst sequence; replies: one
 *                            more (mars_nwe)
 *    24    4 burst length    bytes of the whole burst
 *    28    4 data offset     of this fragment's data in the burst
 *    32    2 data bytes      of this fragment
 *    34    2 missing count   entries of the missing-fragment list
 *    36    . data, or (SYS packets) the list: offset BE4 + length BE2
 *
 * A request burst begins (data offset 0) with 24 bytes: command LE4
 * (1 read, 2 write), file handle 4 (bytes 2..5 of the NCP handle), 8
 * reserved, file offset BE4, byte count BE4; a write's data follows. A
 * read reply is result LE4 + bytes read BE4 + the data; a write reply
 * result LE4 (mars_nwe's layouts; Wireshark's packet-ncp.c names them).
 */
#ifndef IPXLAB_NCP_BURST_H
#define IPXLAB_NCP_BURST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NCP_BURST_HDR_LEN 36
#define NCP_BURST_STREAM 2
#define NCP_BURST_REQ_LEN 24	/* command, handle, reserved, offset, count */
#define NCP_BURST_READ_REP 8	/* result, bytes read */
#define NCP_BURST_WRITE_REP 4	/* result */
#define NCP_BURST_GAP_LEN 6	/* one missing-fragment entry */

enum {
	NCP_BF_ABT = 0x04,	/* abort (not sent; ignored) */
	NCP_BF_BSY = 0x08,	/* server busy (not sent; ignored) */
	NCP_BF_EOB = 0x10,	/* last fragment of a burst */
	NCP_BF_LST = 0x40,	/* a missing-fragment list is included */
	NCP_BF_SYS = 0x80,	/* system packet: no data */
};

enum { NCP_BURST_READ = 1, NCP_BURST_WRITE = 2 };

/* Result codes of a burst reply (mars_nwe, Wireshark). */
enum {
	NCP_BURST_OK = 0,
	NCP_BURST_E_INIT = 1,	/* bad handle, no right */
	NCP_BURST_E_IO = 2,
	NCP_BURST_E_NODATA = 3,	/* ipxlab: the region is locked */
	NCP_BURST_E_WRITE = 4,
};

/* Burst packets a client or a server discards, each counted. */
#define NCP_BURST_DROPS(X)                                                   \
	X(SHORT, "burst_short", "shorter than a burst header")               \
	X(BAD_LEN, "burst_bad_length", "data bytes or missing list past the packet's end") \
	X(BAD_RANGE, "burst_bad_range", "data outside the burst length, or a burst too long") \
	X(NO_SESSION, "burst_no_session", "no burst connection of these IDs and address") \
	X(STALE, "burst_stale", "of another burst sequence than the one under way") \
	X(DUP, "burst_duplicate", "a fragment whose bytes have all arrived already") \
	X(REFUSED, "burst_refused", "burst mode refused (server option)")

#define NCP_BURST_DROP_ENUM_(id, name, desc) NCP_BURST_DROP_##id,
enum ncp_burst_drop { NCP_BURST_DROPS(NCP_BURST_DROP_ENUM_) NCP_BURST_DROP_COUNT };
#undef NCP_BURST_DROP_ENUM_

const char *ncp_burst_drop_name(enum ncp_burst_drop d);

struct ncp_burst_hdr {
	uint8_t flags, stream;
	uint32_t src_id, dst_id, pkt_seq, delay;
	uint16_t burst_seq, ack_seq;
	uint32_t burst_len, offset;
	uint16_t data_len, nmissing;
};

/*
 * Decode and check a burst packet: the type, data bytes within the packet
 * (SYS: the list within it), data within the burst length. 0 with *body
 * at the data or the list, else -1 - the drop (enum ncp_burst_drop).
 */
int ncp_burst_decode(const uint8_t *p, size_t len, struct ncp_burst_hdr *h,
		     const uint8_t **body);
/* Write the 36-byte header (type 0x7777). */
void ncp_burst_encode(const struct ncp_burst_hdr *h, uint8_t *out);

struct ncp_burst_gap {
	uint32_t off;
	uint16_t len;
};

/* Entry i of a missing-fragment list (the caller checked the count). */
void ncp_burst_gap_get(const uint8_t *list, size_t i, struct ncp_burst_gap *g);
void ncp_burst_gap_put(uint8_t *list, size_t i, const struct ncp_burst_gap *g);

/* The 24-byte request header of a burst. */
struct ncp_burst_req {
	uint32_t command;	/* NCP_BURST_READ, NCP_BURST_WRITE */
	uint8_t handle[4];
	uint32_t offset, count;
};
/* -1 if shorter than NCP_BURST_REQ_LEN. */
int ncp_burst_req_decode(const uint8_t *p, size_t len, struct ncp_burst_req *r);
void ncp_burst_req_encode(const struct ncp_burst_req *r, uint8_t *out);

/*
 * What part of a burst of 'len' bytes has arrived: one bit a byte, up to
 * 'cap' bytes (ncp_burst_map_new). mark returns the bytes that were new
 * (0: a duplicate). gaps fills at most 'max' missing ranges (each at most
 * 65,535 bytes) and returns how many.
 */
struct ncp_burst_map {
	uint8_t *bits;
	size_t cap, len, have;
};
int ncp_burst_map_new(struct ncp_burst_map *m, size_t cap);
void ncp_burst_map_free(struct ncp_burst_map *m);
void ncp_burst_map_reset(struct ncp_burst_map *m, size_t len);
size_t ncp_burst_map_mark(struct ncp_burst_map *m, size_t off, size_t n);
static inline bool ncp_burst_map_full(const struct ncp_burst_map *m)
{
	return m->have == m->len;
}
size_t ncp_burst_map_gaps(const struct ncp_burst_map *m,
			  struct ncp_burst_gap *out, size_t max);

#ifdef __cplusplus
}
#endif

#endif
