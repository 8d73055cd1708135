/*
 * test_ncp_crypt.c - NetWare's password hash (src/ncp/crypt.c) against
 * vectors computed with mars_nwe's nwcrypt.c (the routine ncpfs shares),
 * compiled apart from the project (docs/ncp.md, "Encrypted login"): the
 * hash of an empty password, short and long ones, the answer to a key,
 * the coding of a new password for 0x17 0x4B and its inverse.
 */
#include "cm.h"

#include <stdio.h>
#include <string.h>

#include "ipxlab/ncp_crypt.h"

static const uint8_t key[8] = { 0x01, 0x23, 0x45, 0x67,
				0x89, 0xAB, 0xCD, 0xEF };

static void unhex(const char *s, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
}

static void hashes_match_the_published_routine(void **state)
{
	static const struct {
		uint32_t id;
		const char *pw, *hash, *answer;
	} v[] = {
		{ 1, "", "4AD22A173E5984B681545A08BEE44CE3",
		  "90C3E8F38A528E5F" },
		{ 1, "SECRET", "431ACC6AFF11A6D53F71189F6E1CA901",
		  "14E322DA1B38EA07" },
		{ 0x00010002, "SECRET", "DEDD2401446A8EB5C58B21901A6DDE46",
		  "145594FF11E51BF1" },
		{ 0x00010001, "", "72CAB55BC906160883FD558488916BD9",
		  "EF6BB4F54E43B604" },
		{ 0x12345678, "A", "458CA3DEE239D062B6881BD1DD4C6F15",
		  "76F05BD3D74D666B" },
		/* Longer than 32 bytes: folded, then the rest repeated. */
		{ 0x00010003, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
		  "77AC52D6253AE405C51E4E565900586B", "1955834F21AD4182" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		uint8_t h[16], want_h[16], a[8], want_a[8];

		unhex(v[i].hash, want_h, 16);
		unhex(v[i].answer, want_a, 8);
		ncp_pw_hash(v[i].id, v[i].pw, strlen(v[i].pw), h);
		assert_memory_equal(h, want_h, 16);
		ncp_pw_key_answer(key, h, a);
		assert_memory_equal(a, want_a, 8);
	}
}

static void trailing_nuls_and_ids_count_as_netware_does(void **state)
{
	uint8_t a[16], b[16];

	(void)state;
	/* Trailing NULs are not part of the password... */
	ncp_pw_hash(7, "PW\0\0", 4, a);
	ncp_pw_hash(7, "PW", 2, b);
	assert_memory_equal(a, b, 16);
	/* ...but the object ID is: the same password for another ID. */
	ncp_pw_hash(8, "PW", 2, b);
	assert_memory_not_equal(a, b, 16);
	/* Case is the caller's: clients send upper case. */
	ncp_pw_hash(7, "pw", 2, b);
	assert_memory_not_equal(a, b, 16);
}

static void new_password_coding_round_trips(void **state)
{
	uint8_t oh[16], nh[16], enc[16], want[16], dec[16];

	(void)state;
	ncp_pw_hash(0x00010002, "OLD", 3, oh);
	ncp_pw_hash(0x00010002, "NEWPASS", 7, nh);
	ncp_pw_new_encode(oh, nh, enc);
	unhex("7BEF3854932C06128B95BA5BD48E176C", want, 16);
	assert_memory_equal(enc, want, 16);
	ncp_pw_new_decode(oh, enc, dec);
	assert_memory_equal(dec, nh, 16);
	assert_int_equal(ncp_pw_new_len_byte(oh, 7), 0x62);
	/* Decoding with another old hash gives something else. */
	ncp_pw_hash(0x00010002, "OTHER", 5, oh);
	ncp_pw_new_decode(oh, enc, dec);
	assert_memory_not_equal(dec, nh, 16);
}

static void passwords_upper_case(void **state)
{
	char b[8];

	(void)state;
	assert_int_equal(ncp_pw_upper("seCret1", b, sizeof(b)), 7);
	assert_string_equal(b, "SECRET1");
	assert_int_equal(ncp_pw_upper("toolongpassword", b, sizeof(b)), 7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(hashes_match_the_published_routine),
		cmocka_unit_test(trailing_nuls_and_ids_count_as_netware_does),
		cmocka_unit_test(new_password_coding_round_trips),
		cmocka_unit_test(passwords_upper_case),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
