/*
 * buf.h - packet buffers with headroom.
 *
 * A buffer is one allocation: a small descriptor followed by its bytes. The
 * packet starts IPX_BUF_HEADROOM bytes in, so each layer below the one that
 * wrote the payload (NCP/NetBIOS/SPX, then IPX, then the link framing) can
 * prepend its header with ipx_buf_push() without copying.
 *
 * Ownership: whoever allocates a buffer frees it. Sending functions copy
 * what they need and never take ownership; receive callbacks get borrowed
 * bytes that are valid only for the duration of the call.
 */
#ifndef IPXLAB_BUF_H
#define IPXLAB_BUF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Room for the largest link framing (14 MAC + 8 LLC/SNAP), IPX (30) and
 * the largest header above IPX (SPX II 14, NCP, NetBIOS), rounded up. */
#define IPX_BUF_HEADROOM 128
/* Largest IPX packet ipxlab handles: what a 4 Mbit/s Token-Ring frame
 * carries (4,478 - 17 bytes of MAC and LLC header), the in-memory link's
 * limit with a tr4 or tr16 profile. Ethernet and the tunnel allow less. */
#define IPX_MAX_PACKET 4461
/* The Ethernet MTU: the in-memory link's default and an internal
 * network's. */
#define IPX_LAN_PACKET 1500

struct ipx_buf {
	uint8_t *data;		/* first byte of the packet */
	size_t len;		/* bytes from data */
	size_t cap;		/* bytes in mem[] */
	uint8_t mem[];
};

/* A buffer whose data can grow to 'payload' bytes after the headroom. */
struct ipx_buf *ipx_buf_new(size_t payload);
void ipx_buf_free(struct ipx_buf *buf);

/* Bytes free in front of data. */
static inline size_t ipx_buf_headroom(const struct ipx_buf *buf)
{
	return (size_t)(buf->data - buf->mem);
}

/* Prepend n bytes; returns their start, or NULL if headroom is short. */
uint8_t *ipx_buf_push(struct ipx_buf *buf, size_t n);
/* Drop n bytes from the front; returns the new start or NULL if too few. */
uint8_t *ipx_buf_pull(struct ipx_buf *buf, size_t n);
/* Append n bytes; returns their start or NULL if the tail is short. */
uint8_t *ipx_buf_put(struct ipx_buf *buf, size_t n);
/* Forget the contents and restore the full headroom. */
void ipx_buf_reset(struct ipx_buf *buf);

#ifdef __cplusplus
}
#endif

#endif
