/*
 * bench_shellcache.h - the 1990 NetWare shell's cache of non-shared
 * files, as a period workstation's NCP client has it (docs/fidelity-b2b3.md,
 * "The shell's cache").
 *
 * The DOS shell of NetWare (NETx) keeps a few cache buffers (SHELL.CFG's
 * CACHE BUFFERS, 5 by default) for files no other workstation shares. A
 * read smaller than a block is answered from the cache; a block it lacks
 * is fetched whole from the server first (one request of the block's
 * size, the negotiated buffer), least recently used out. Reads of a block
 * or more go to the server as they are. The cache holds the bytes it was
 * sent, so a read returns what the file holds.
 *
 * The fetch is a callback, so the cache does not know NCP: the workload
 * gives it ncp_read (work_ncp.c), the unit test a file in memory.
 */
#ifndef IPXLAB_BENCH_SHELLCACHE_H
#define IPXLAB_BENCH_SHELLCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* NETx's CACHE BUFFERS range (0 turns the cache off). */
#define IPX_SHELLCACHE_MAX_BLOCKS 64

/* Read n bytes at off into buf; *got is how many the file had (fewer at
 * its end). 0 or an error code, returned by ipx_shellcache_read. */
typedef int (*ipx_shellcache_fetch)(void *ctx, uint32_t off, uint8_t *buf,
				    size_t n, size_t *got);

struct ipx_shellcache;

struct ipx_shellcache_stats {
	uint64_t hits;		/* reads the cache answered whole */
	uint64_t misses;	/* reads that fetched at least one block */
	uint64_t fetches;	/* blocks fetched */
	uint64_t bytes;		/* bytes those fetches brought */
	uint64_t direct;	/* reads of a block or more, not cached */
};

/* A cache of blocks blocks of block_size bytes (1..65535); IPX_EINVAL
 * for a count outside 1..IPX_SHELLCACHE_MAX_BLOCKS or a zero size,
 * IPX_ENOMEM. */
int ipx_shellcache_new(unsigned blocks, uint32_t block_size,
		       ipx_shellcache_fetch fetch, void *ctx,
		       struct ipx_shellcache **out);
void ipx_shellcache_free(struct ipx_shellcache *c);

/*
 * Read n bytes at off into buf, as the shell would: from the cache when n
 * is under a block (fetching the blocks it spans that it lacks), else
 * straight through the fetch. *got is the bytes read (fewer at the end of
 * the file); *hit says whether the cache answered without a fetch. A
 * fetch's error is returned as it is, and the block it was for is not
 * kept.
 */
int ipx_shellcache_read(struct ipx_shellcache *c, uint32_t off, uint8_t *buf,
			size_t n, size_t *got, bool *hit);

const struct ipx_shellcache_stats *
ipx_shellcache_stats(const struct ipx_shellcache *c);

#ifdef __cplusplus
}
#endif

#endif
