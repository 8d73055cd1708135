/*
 * shellcache.c - the 1990 NetWare shell's cache of non-shared files
 * (bench_shellcache.h): a few blocks of the negotiated buffer's size,
 * least recently used out, fetched whole through a callback.
 */
#include "ipxlab/bench_shellcache.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"

struct block {
	bool valid;
	uint32_t index;		/* the file offset / block_size */
	uint32_t len;		/* bytes the file had there */
	uint64_t used;		/* the tick of its last use */
	uint8_t *data;
};

struct ipx_shellcache {
	unsigned nblocks;
	uint32_t block_size;
	ipx_shellcache_fetch fetch;
	void *ctx;
	uint64_t tick;
	struct ipx_shellcache_stats st;
	struct block b[];
};

int ipx_shellcache_new(unsigned blocks, uint32_t block_size,
		       ipx_shellcache_fetch fetch, void *ctx,
		       struct ipx_shellcache **out)
{
	struct ipx_shellcache *c;

	*out = NULL;
	if (!blocks || blocks > IPX_SHELLCACHE_MAX_BLOCKS || !block_size ||
	    block_size > 65535 || !fetch)
		return IPX_EINVAL;
	c = calloc(1, sizeof(*c) + blocks * sizeof(c->b[0]));
	if (!c)
		return IPX_ENOMEM;
	c->nblocks = blocks;
	c->block_size = block_size;
	c->fetch = fetch;
	c->ctx = ctx;
	for (unsigned i = 0; i < blocks; i++) {
		c->b[i].data = malloc(block_size);
		if (!c->b[i].data) {
			ipx_shellcache_free(c);
			return IPX_ENOMEM;
		}
	}
	*out = c;
	return IPX_OK;
}

void ipx_shellcache_free(struct ipx_shellcache *c)
{
	if (!c)
		return;
	for (unsigned i = 0; i < c->nblocks; i++)
		free(c->b[i].data);
	free(c);
}

/* The block holding index, fetched into the least recently used one when
 * absent; NULL with *rc set when the fetch failed. */
static struct block *block_of(struct ipx_shellcache *c, uint32_t index,
			      bool *fetched, int *rc)
{
	struct block *lru = &c->b[0];
	size_t got = 0;

	for (unsigned i = 0; i < c->nblocks; i++) {
		struct block *b = &c->b[i];

		if (b->valid && b->index == index)
			return b;
		if (!b->valid || (lru->valid && b->used < lru->used))
			lru = b;
	}
	lru->valid = false;
	*rc = c->fetch(c->ctx, index * c->block_size, lru->data,
		       c->block_size, &got);
	if (*rc)
		return NULL;
	c->st.fetches++;
	c->st.bytes += got > c->block_size ? c->block_size : got;
	*fetched = true;
	lru->valid = true;
	lru->index = index;
	lru->len = got > c->block_size ? c->block_size : (uint32_t)got;
	return lru;
}

int ipx_shellcache_read(struct ipx_shellcache *c, uint32_t off, uint8_t *buf,
			size_t n, size_t *got, bool *hit)
{
	bool fetched = false;
	size_t done = 0;
	int rc = 0;

	*got = 0;
	*hit = false;
	if (n >= c->block_size) {
		c->st.direct++;
		return c->fetch(c->ctx, off, buf, n, got);
	}
	while (done < n) {
		uint64_t at = (uint64_t)off + done;
		uint32_t index = (uint32_t)(at / c->block_size);
		uint32_t in = (uint32_t)(at % c->block_size);
		struct block *b = block_of(c, index, &fetched, &rc);
		size_t take;

		if (!b)
			return rc;
		b->used = ++c->tick;
		if (in >= b->len)
			break;	/* the end of the file */
		take = b->len - in;
		if (take > n - done)
			take = n - done;
		memcpy(buf + done, b->data + in, take);
		done += take;
		if (b->len < c->block_size)
			break;	/* a short block is the file's last */
	}
	*got = done;
	*hit = !fetched;
	if (fetched)
		c->st.misses++;
	else
		c->st.hits++;
	return 0;
}

const struct ipx_shellcache_stats *
ipx_shellcache_stats(const struct ipx_shellcache *c)
{
	return &c->st;
}
