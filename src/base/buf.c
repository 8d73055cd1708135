/*
 * buf.c - packet buffers with headroom (see buf.h).
 */
#include "ipxlab/buf.h"

#include <stdlib.h>

struct ipx_buf *ipx_buf_new(size_t payload)
{
	size_t cap = IPX_BUF_HEADROOM + payload;
	struct ipx_buf *buf = malloc(sizeof(*buf) + cap);

	if (!buf)
		return NULL;
	buf->cap = cap;
	ipx_buf_reset(buf);
	return buf;
}

void ipx_buf_free(struct ipx_buf *buf)
{
	free(buf);
}

void ipx_buf_reset(struct ipx_buf *buf)
{
	buf->data = buf->mem + IPX_BUF_HEADROOM;
	buf->len = 0;
}

uint8_t *ipx_buf_push(struct ipx_buf *buf, size_t n)
{
	if (ipx_buf_headroom(buf) < n)
		return NULL;
	buf->data -= n;
	buf->len += n;
	return buf->data;
}

uint8_t *ipx_buf_pull(struct ipx_buf *buf, size_t n)
{
	if (buf->len < n)
		return NULL;
	buf->data += n;
	buf->len -= n;
	return buf->data;
}

uint8_t *ipx_buf_put(struct ipx_buf *buf, size_t n)
{
	size_t used = ipx_buf_headroom(buf) + buf->len;
	uint8_t *tail;

	if (buf->cap - used < n)
		return NULL;
	tail = buf->data + buf->len;
	buf->len += n;
	return tail;
}
