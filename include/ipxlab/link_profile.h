/*
 * link_profile.h - the character of a 1990 link: bit rate, what each frame
 * costs on the wire, the largest frame, propagation delay, loss, whether
 * the stations share one medium, and (for a bridged WAN) the bridge
 * modules' buffers and trunk. docs/links.md, "Link profiles", explains
 * the model and every figure.
 *
 * A profile is plain data. The named ones are eth10, tr4, tr16 and isn;
 * anything else comes from a profile file ("key value" lines, '#'
 * comments, "base NAME" to start from a named one), parsed here with
 * errors as "FILE:LINE: what is wrong". The medium (link_medium.h) is
 * what applies a profile; the in-memory segment, the hub and the WAN
 * bridge all use it.
 */
#ifndef IPXLAB_LINK_PROFILE_H
#define IPXLAB_LINK_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ipxlab/clock.h"

#ifdef __cplusplus
extern "C" {
#endif

/* How the stations of one segment get the wire. */
enum ipx_profile_access {
	IPX_ACCESS_OWN,		/* not shared: every station its own wire */
	IPX_ACCESS_CSMA_CD,	/* shared Ethernet: defer, contend, take turns */
	IPX_ACCESS_TOKEN,	/* shared Token-Ring: the token goes round */
};

/*
 * A station's network adapter, as a 1990 Token-Ring card had it: shared
 * RAM of 8, 16, 32 or 64 KB divided into transmit and receive buffers.
 * 'memory' 0: not modelled (frames are ready for the wire when sent and
 * arrive with no copy time). Otherwise a frame handed to the adapter is
 * copied into a free transmit buffer at 'copy_rate' bits/s before it can
 * go onto the wire, and the buffer is free again once the frame has left
 * the wire: with one buffer the next copy waits for the wire, with two it
 * runs while the previous frame is on it. The station sends no frame
 * larger than a transmit buffer ('tx_size', link header included): its
 * IPX packets are at most tx_size - header bytes. A frame received is
 * copied out of ceil(frame / rx_size) receive buffers, each costing
 * 'rx_cost_ns' besides the copy; the receive buffers are what memory the
 * transmit buffers leave, and a frame that finds too few free is dropped
 * (counted). docs/links.md, "Adapter memory and buffers".
 */
struct ipx_adapter {
	uint32_t memory;	/* bytes of shared RAM; 0: not modelled */
	uint32_t tx_buffers;	/* 1 or 2 */
	uint32_t tx_size;	/* bytes per transmit buffer */
	uint32_t rx_size;	/* bytes per receive buffer */
	uint64_t copy_rate;	/* host <-> adapter copies, bits/s; 0: free */
	uint64_t rx_cost_ns;	/* per receive buffer a frame uses */
};

struct ipx_profile {
	char name[32];
	uint64_t rate;		/* bits per second; 0: no limit, no wire time */
	uint32_t header;	/* link header added to each IPX packet (bytes) */
	uint32_t min_frame;	/* shorter frames are padded to this */
	uint32_t overhead;	/* per-frame wire bytes beyond the frame:
				 * preamble, FCS, gap; SD, FCS, ED, FS */
	uint32_t max_frame;	/* largest frame, header included */
	uint64_t delay_ns;	/* propagation delay */
	uint32_t loss_ppm;	/* frames lost on the wire, per million */
	enum ipx_profile_access access;
	/* Shared media: the wire time lost when two or more stations want
	 * the wire at once (CSMA/CD: a collision and its backoff slot), and
	 * the time the free token takes to reach the next station (Token-
	 * Ring), both in bit times. */
	uint32_t contention_bits;
	uint32_t token_bits;
	uint32_t queue;		/* bytes a station may have waiting */
	/* A NetWare-style bridge on the path: IPX packets longer than this
	 * are dropped there (0: no limit). */
	uint32_t bridge_max;
	/* The WAN bridge modules (isn): receive buffer, transmit buffer,
	 * the block a module releases by fill (bytes held at which it
	 * sends; 0: the whole receive buffer), hold timer. Only ipx_wan
	 * uses them. */
	uint32_t rx_buffer, tx_buffer;
	uint32_t release;
	/* A module holding at least this many bytes sends them at once, the
	 * frame that filled it included (0: never; a lone frame then waits
	 * for the next frame or the hold whatever its size). */
	uint32_t release_at;
	uint64_t hold_ns;
	/* Every station's adapter (ipx_mem_link_set_adapter changes one). */
	struct ipx_adapter adapter;
};

/*
 * Does the adapter's buffer configuration fit its memory? It needs its
 * transmit buffers and at least two receive buffers, and enough receive
 * buffers for one frame of its transmit size:
 *   tx_buffers x tx_size + max(2, ceil(tx_size / rx_size)) x rx_size
 *   <= memory
 * err gets the arithmetic when it does not ("adapter memory 8192 bytes
 * cannot hold ...: 2 x 4096 + 2 x 2048 = 12288 bytes > 8192"), or what
 * else is wrong (tx_buffers not 1 or 2, a buffer smaller than the link
 * header and an IPX header, a transmit buffer larger than max_frame).
 * A memory of 0 is always fine. IPX_OK or IPX_ECONFIG.
 */
int ipx_adapter_check(const struct ipx_adapter *a,
		      const struct ipx_profile *p, char *err, size_t errlen);
/* Receive buffers the adapter has (what the transmit buffers leave). */
uint32_t ipx_adapter_rx_buffers(const struct ipx_adapter *a);
/* The largest IPX packet a station with this adapter sends on p. */
size_t ipx_adapter_mtu(const struct ipx_adapter *a,
		       const struct ipx_profile *p);
/* Nanoseconds to copy a frame of 'len' IPX bytes (header included) to
 * or from the adapter (0 when not modelled). */
uint64_t ipx_adapter_copy_ns(const struct ipx_adapter *a,
			     const struct ipx_profile *p, size_t len);
/* Receive buffers a frame of 'len' IPX bytes takes. */
uint32_t ipx_adapter_rx_need(const struct ipx_adapter *a,
			     const struct ipx_profile *p, size_t len);

/* The named profiles, for help text: "eth10, tr4, tr16, isn". */
extern const char ipx_profile_names[];

/* A named profile; IPX_ENOTFOUND if there is none by that name. */
int ipx_profile_named(const char *name, struct ipx_profile *out);

/*
 * Parse a profile file's text. 'file' names it in messages; err gets
 * "FILE:LINE: what is wrong" (or "FILE: ..." for a whole-file problem).
 * Returns IPX_OK or IPX_ECONFIG.
 */
int ipx_profile_parse(const char *text, size_t len, const char *file,
		      struct ipx_profile *out, char *err, size_t errlen);
/* Read and parse a profile file (IPX_EIO if it cannot be read). */
int ipx_profile_load(const char *path, struct ipx_profile *out, char *err,
		     size_t errlen);
/*
 * What --profile takes: a named profile, or else a file. err says which
 * names exist when 'spec' is neither.
 */
int ipx_profile_resolve(const char *spec, struct ipx_profile *out, char *err,
			size_t errlen);
/* Is the profile consistent? err says what is not (no file position). */
int ipx_profile_check(const struct ipx_profile *p, char *err, size_t errlen);

/*
 * The value parsers the file uses, for command-line options too: a bit
 * rate ("10M", "950k", "4000000"; bits/s), a size in bytes ("182K" =
 * 182 * 1024, "1514"), a time ("50ms", "5us", "200ns", "1s", "0"), a loss
 * ("0.1%", "1000ppm"). Each returns IPX_OK or IPX_EINVAL.
 */
int ipx_profile_parse_rate(const char *text, uint64_t *out);
int ipx_profile_parse_size(const char *text, uint32_t *out);
int ipx_profile_parse_time(const char *text, uint64_t *out_ns);
int ipx_profile_parse_loss(const char *text, uint32_t *out_ppm);

/* The largest IPX packet the profile's frames carry. */
size_t ipx_profile_mtu(const struct ipx_profile *p);
/* Bytes on the wire for an IPX packet of 'len' bytes: header, padding,
 * overhead. */
uint64_t ipx_profile_wire_bytes(const struct ipx_profile *p, size_t len);
/* Nanoseconds an IPX packet of 'len' bytes occupies the wire (rounded
 * up; 0 when the rate is unlimited). */
uint64_t ipx_profile_wire_ns(const struct ipx_profile *p, size_t len);
/* The profile as a file would say it, one "key value" line each. */
void ipx_profile_print(const struct ipx_profile *p, FILE *out);

#ifdef __cplusplus
}
#endif

#endif
