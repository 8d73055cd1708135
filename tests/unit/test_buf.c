/*
 * test_buf.c - packet buffers: push into the headroom, pull, put at the
 * tail, each refused at its exact limit and leaving the buffer as it was.
 */
#include "cm.h"

#include "ipxlab/buf.h"

static void headroom_takes_exactly_its_size(void **state)
{
	struct ipx_buf *b = ipx_buf_new(100);
	uint8_t *p;

	(void)state;
	assert_non_null(b);
	assert_int_equal(b->cap, IPX_BUF_HEADROOM + 100);
	assert_int_equal(b->len, 0);
	assert_int_equal(ipx_buf_headroom(b), IPX_BUF_HEADROOM);
	p = ipx_buf_push(b, 30);
	assert_ptr_equal(p, b->mem + IPX_BUF_HEADROOM - 30);
	assert_int_equal(b->len, 30);
	/* One byte more than is left in front: refused, nothing changed. */
	assert_null(ipx_buf_push(b, IPX_BUF_HEADROOM - 30 + 1));
	assert_ptr_equal(b->data, p);
	assert_int_equal(b->len, 30);
	/* All that is left: taken. */
	assert_ptr_equal(ipx_buf_push(b, IPX_BUF_HEADROOM - 30), b->mem);
	assert_int_equal(ipx_buf_headroom(b), 0);
	assert_null(ipx_buf_push(b, 1));
	assert_int_equal(b->len, IPX_BUF_HEADROOM);
	ipx_buf_reset(b);
	assert_int_equal(ipx_buf_headroom(b), IPX_BUF_HEADROOM);
	assert_int_equal(b->len, 0);
	ipx_buf_free(b);
}

static void pull_and_put_stop_at_the_ends(void **state)
{
	struct ipx_buf *b = ipx_buf_new(100);
	uint8_t *tail;

	(void)state;
	tail = ipx_buf_put(b, 60);
	assert_ptr_equal(tail, b->mem + IPX_BUF_HEADROOM);
	assert_int_equal(b->len, 60);
	/* The tail has 40 bytes left. */
	assert_null(ipx_buf_put(b, 41));
	assert_int_equal(b->len, 60);
	assert_ptr_equal(ipx_buf_put(b, 40), tail + 60);
	assert_null(ipx_buf_put(b, 1));
	/* Pull: at most what there is. */
	assert_null(ipx_buf_pull(b, 101));
	assert_int_equal(b->len, 100);
	assert_ptr_equal(ipx_buf_pull(b, 30), tail + 30);
	assert_int_equal(b->len, 70);
	assert_int_equal(ipx_buf_headroom(b), IPX_BUF_HEADROOM + 30);
	assert_null(ipx_buf_pull(b, 71));
	assert_ptr_equal(ipx_buf_pull(b, 70), tail + 100);
	assert_int_equal(b->len, 0);
	ipx_buf_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(headroom_takes_exactly_its_size),
		cmocka_unit_test(pull_and_put_stop_at_the_ends),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
