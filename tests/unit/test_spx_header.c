/*
 * test_spx_header.c - the SPX header decoder's length rules at each edge:
 * a plain SPX header needs all 12 bytes (11 refused), an SPX II one 14
 * (13 refused) except the first connect request, which has no
 * negotiation size. Each buffer is allocated at exactly its length, so a
 * read past it is also seen by AddressSanitizer.
 */
#include "cm.h"

#include <stdlib.h>
#include <string.h>

#include "ipxlab/err.h"
#include "ipxlab/spx.h"

/* Decode the first 'len' bytes of 'src' from a buffer of exactly 'len'. */
static int decode_exact(const uint8_t *src, size_t len, struct spx_header *h)
{
	uint8_t *p = malloc(len ? len : 1);
	int rc;

	assert_non_null(p);
	memcpy(p, src, len);
	rc = spx_header_decode(p, len, h);
	free(p);
	return rc;
}

static const uint8_t spx1[12] = { SPX_CC_ACK, 0, 0x12, 0x34, 0x56, 0x78,
				  0x00, 0x05, 0x00, 0x06, 0x00, 0x07 };

static void plain_spx_needs_12_bytes(void **state)
{
	struct spx_header h;

	(void)state;
	for (size_t len = 0; len < SPX_HDR_LEN; len++) {
		memset(&h, 0xAA, sizeof(h));
		if (decode_exact(spx1, len, &h) != IPX_ESHORT)
			fail_msg("a %zu-byte SPX header was accepted", len);
	}
	assert_int_equal(decode_exact(spx1, 12, &h), IPX_OK);
	assert_int_equal(h.hdr_len, 12);
	assert_int_equal(h.cc, SPX_CC_ACK);
	assert_int_equal(h.src_id, 0x1234);
	assert_int_equal(h.dst_id, 0x5678);
	assert_int_equal(h.seq, 5);
	assert_int_equal(h.ack, 6);
	assert_int_equal(h.alloc, 7);
	assert_int_equal(h.neg_size, 0);
}

static void spx2_needs_14_bytes_after_the_connect_request(void **state)
{
	uint8_t p[14];
	struct spx_header h;

	(void)state;
	memcpy(p, spx1, 12);
	p[0] = SPX_CC_SPX2 | SPX_CC_ACK;
	p[12] = 0x05;
	p[13] = 0xDC;
	assert_int_equal(decode_exact(p, 11, &h), IPX_ESHORT);
	assert_int_equal(decode_exact(p, 12, &h), IPX_ESHORT);
	assert_int_equal(decode_exact(p, 13, &h), IPX_ESHORT);
	assert_int_equal(decode_exact(p, 14, &h), IPX_OK);
	assert_int_equal(h.hdr_len, 14);
	assert_int_equal(h.neg_size, 1500);
	/* The connect request (destination id unknown): 12 bytes do. */
	p[4] = 0xFF;
	p[5] = 0xFF;
	assert_int_equal(decode_exact(p, 11, &h), IPX_ESHORT);
	assert_int_equal(decode_exact(p, 12, &h), IPX_OK);
	assert_int_equal(h.hdr_len, 12);
	assert_int_equal(h.dst_id, SPX_CONN_UNKNOWN);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(plain_spx_needs_12_bytes),
		cmocka_unit_test(spx2_needs_14_bytes_after_the_connect_request),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
