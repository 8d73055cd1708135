/*
 * test_bench_shellcache.c - the 1990 shell's cache of non-shared files
 * (bench_shellcache.h): a small read is answered from a block fetched
 * whole, a hit fetches nothing, the least recently used block goes out,
 * reads across blocks and at the file's end return the file's bytes,
 * large reads go straight through, a failed fetch keeps nothing, and bad
 * sizes are refused.
 */
#include "cm.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/bench_shellcache.h"
#include "ipxlab/err.h"

#define FILE_SIZE 5000

struct file {
	uint8_t data[FILE_SIZE];
	unsigned fetches;
	uint32_t last_off;
	size_t last_n;
	int fail;		/* the next fetch returns this */
};

static int fetch(void *ctx, uint32_t off, uint8_t *buf, size_t n, size_t *got)
{
	struct file *f = ctx;

	f->fetches++;
	f->last_off = off;
	f->last_n = n;
	if (f->fail) {
		int rc = f->fail;

		f->fail = 0;
		return rc;
	}
	*got = off >= FILE_SIZE ? 0 : n < FILE_SIZE - off ? n : FILE_SIZE - off;
	if (*got)
		memcpy(buf, f->data + off, *got);
	return 0;
}

static struct file *new_file(void)
{
	struct file *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	for (size_t i = 0; i < FILE_SIZE; i++)
		f->data[i] = (uint8_t)(i * 7 + i / 251);
	return f;
}

static void read_ok(struct ipx_shellcache *c, struct file *f, uint32_t off,
		    size_t n, size_t want, bool want_hit)
{
	uint8_t buf[2048];
	size_t got = 99;
	bool hit = !want_hit;

	assert_int_equal(ipx_shellcache_read(c, off, buf, n, &got, &hit), 0);
	assert_int_equal(got, want);
	assert_int_equal(hit, want_hit);
	if (want)
		assert_memory_equal(buf, f->data + off, want);
}

static void a_small_read_fetches_its_block_once(void **state)
{
	struct file *f = new_file();
	struct ipx_shellcache *c;

	(void)state;
	assert_int_equal(ipx_shellcache_new(5, 1024, fetch, f, &c), IPX_OK);
	read_ok(c, f, 1030, 64, 64, false);
	assert_int_equal(f->fetches, 1);
	assert_int_equal(f->last_off, 1024);	/* the whole block */
	assert_int_equal(f->last_n, 1024);
	/* every other 64-byte read of that block: no request */
	for (uint32_t off = 1024; off + 64 <= 2048; off += 64)
		read_ok(c, f, off, 64, 64, true);
	assert_int_equal(f->fetches, 1);
	assert_int_equal(ipx_shellcache_stats(c)->hits, 16);
	assert_int_equal(ipx_shellcache_stats(c)->misses, 1);
	assert_int_equal(ipx_shellcache_stats(c)->bytes, 1024);
	ipx_shellcache_free(c);
	free(f);
}

static void the_least_recently_used_block_goes_out(void **state)
{
	struct file *f = new_file();
	struct ipx_shellcache *c;

	(void)state;
	assert_int_equal(ipx_shellcache_new(2, 1024, fetch, f, &c), IPX_OK);
	read_ok(c, f, 0, 10, 10, false);	/* block 0 */
	read_ok(c, f, 1024, 10, 10, false);	/* block 1 */
	read_ok(c, f, 5, 10, 10, true);		/* block 0 used again */
	read_ok(c, f, 2048, 10, 10, false);	/* block 2: block 1 out */
	assert_int_equal(f->fetches, 3);
	read_ok(c, f, 100, 10, 10, true);	/* block 0 kept */
	read_ok(c, f, 1100, 10, 10, false);	/* block 1 fetched again */
	assert_int_equal(f->fetches, 4);
	ipx_shellcache_free(c);
	free(f);
}

static void reads_across_blocks_and_at_the_end(void **state)
{
	struct file *f = new_file();
	struct ipx_shellcache *c;

	(void)state;
	assert_int_equal(ipx_shellcache_new(5, 522, fetch, f, &c), IPX_OK);
	read_ok(c, f, 500, 64, 64, false);	/* blocks 0 and 1 */
	assert_int_equal(f->fetches, 2);
	read_ok(c, f, 520, 64, 64, true);
	/* the file's last block is short: a read past its end gets what
	 * there is, a read beyond it nothing */
	assert_int_equal(ipx_shellcache_stats(c)->bytes, 2 * 522);
	read_ok(c, f, FILE_SIZE - 30, 64, 30, false);
	/* the bytes fetched are what the file had, not the block's size */
	assert_int_equal(ipx_shellcache_stats(c)->bytes,
			 2 * 522 + FILE_SIZE % 522);
	read_ok(c, f, FILE_SIZE - 10, 5, 5, true);
	read_ok(c, f, FILE_SIZE + 600, 64, 0, false);
	ipx_shellcache_free(c);
	free(f);
}

static void a_block_or_more_goes_straight_through(void **state)
{
	struct file *f = new_file();
	struct ipx_shellcache *c;

	(void)state;
	assert_int_equal(ipx_shellcache_new(5, 1024, fetch, f, &c), IPX_OK);
	read_ok(c, f, 100, 1500, 1500, false);
	assert_int_equal(f->last_off, 100);
	assert_int_equal(f->last_n, 1500);
	read_ok(c, f, 100, 1500, 1500, false);	/* nothing was kept */
	assert_int_equal(f->fetches, 2);
	assert_int_equal(ipx_shellcache_stats(c)->direct, 2);
	ipx_shellcache_free(c);
	free(f);
}

static void a_failed_fetch_keeps_nothing(void **state)
{
	struct file *f = new_file();
	struct ipx_shellcache *c;
	uint8_t buf[64];
	size_t got;
	bool hit;

	(void)state;
	assert_int_equal(ipx_shellcache_new(5, 1024, fetch, f, &c), IPX_OK);
	f->fail = 0x8b;
	assert_int_equal(ipx_shellcache_read(c, 0, buf, 64, &got, &hit), 0x8b);
	assert_int_equal(got, 0);
	read_ok(c, f, 0, 64, 64, false);	/* fetched again, and right */
	assert_int_equal(f->fetches, 2);
	ipx_shellcache_free(c);
	free(f);
}

static void bad_sizes_are_refused(void **state)
{
	struct ipx_shellcache *c = (struct ipx_shellcache *)state;

	assert_int_equal(ipx_shellcache_new(0, 1024, fetch, NULL, &c),
			 IPX_EINVAL);
	assert_null(c);
	assert_int_equal(ipx_shellcache_new(IPX_SHELLCACHE_MAX_BLOCKS + 1,
					    1024, fetch, NULL, &c),
			 IPX_EINVAL);
	assert_int_equal(ipx_shellcache_new(5, 0, fetch, NULL, &c),
			 IPX_EINVAL);
	assert_int_equal(ipx_shellcache_new(5, 65536, fetch, NULL, &c),
			 IPX_EINVAL);
	assert_int_equal(ipx_shellcache_new(5, 1024, NULL, NULL, &c),
			 IPX_EINVAL);
	ipx_shellcache_free(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_small_read_fetches_its_block_once),
		cmocka_unit_test(the_least_recently_used_block_goes_out),
		cmocka_unit_test(reads_across_blocks_and_at_the_end),
		cmocka_unit_test(a_block_or_more_goes_straight_through),
		cmocka_unit_test(a_failed_fetch_keeps_nothing),
		cmocka_unit_test(bad_sizes_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
