/*
 * test_ncp_share.c - NetWare open modes between handles: the access
 * rights byte of 0x4C/0x54 (read, write, deny read, deny write,
 * exclusive, compatibility) checked for each pair of modes on two
 * connections of the in-memory bench; a refused open is 0x80 and
 * counted; a create over a file another handle denies writing truncates
 * nothing; a write-only handle cannot read; closing frees the file; the
 * client library's put open (NCP_OPEN_CREATE_DENY_WRITE) refuses a
 * second writer.
 */
#include "cm.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ncprig.h"

#define R NCP_SHARE_READ
#define W NCP_SHARE_WRITE
#define DR NCP_SHARE_DENY_READ
#define DW NCP_SHARE_DENY_WRITE
#define EX NCP_SHARE_EXCLUSIVE
#define CM NCP_SHARE_COMPAT

static int setup(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	char p[400];
	FILE *f;

	snprintf(p, sizeof(p), "%s/F.DAT", r->sys);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs("0123456789", f);
	fclose(f);
	*state = r;
	return 0;
}

static int teardown(void **state)
{
	ncprig_free(*state);
	return 0;
}

/* 0x4C of F.DAT in SYS: with 'rights': the completion code, the handle. */
static uint8_t open4c(struct ncprig *r, struct rawconn *b, uint8_t rights,
		      uint8_t *h)
{
	uint8_t req[16] = { 1, 0, rights, 5, 'F', '.', 'D', 'A', 'T' };
	size_t l;
	const uint8_t *rep = rawconn_call(r, b, 0x4C, req, 9, &l);

	if (rep[6] == 0) {
		assert_int_equal(l, 44);
		memcpy(h, rep + 8, 6);
	}
	return rep[6];
}

static uint8_t close42(struct ncprig *r, struct rawconn *b, const uint8_t *h)
{
	uint8_t req[7] = { 0 };
	size_t l;

	memcpy(req + 1, h, 6);
	return rawconn_call(r, b, 0x42, req, 7, &l)[6];
}

static const struct pair {
	uint8_t first, second;
	bool ok;
} pairs[] = {
	{ R, R, true },
	{ R, R | W, true },
	{ R | W, R | W, true },		/* deny none: both may write */
	{ R | DW, R, true },
	{ R | DW, R | DW, true },	/* two readers denying writers */
	{ R | DW, R | W, false },	/* a writer while writing is denied */
	{ R | DW, W, false },
	{ R | W, R | DW, false },	/* denying what another does */
	{ R | W | DW, R, true },	/* a reader of a file being put */
	{ R | W | DW, R | W, false },
	{ R | W | DW, R | W | DW, false },	/* two puts */
	{ R | DR, R, false },
	{ R | DR, W, true },		/* writing is not denied */
	{ R, W | DR, false },
	{ W, R | DR, true },
	{ R | EX, R, false },
	{ R | EX, W, false },
	{ R, R | EX, false },
	{ W, R | EX, false },
	{ R | W | EX, R | W | EX, false },
	{ CM | R, CM | R | W, true },	/* compatibility denies nothing */
	{ CM | R | W, CM | R | W, true },
	{ CM | R | W, R | DW, false },
	{ 0, R | DW, true },		/* neither bit: a read */
	{ 0, W | DR, false },
};

static void mode_pairs(void **state)
{
	struct ncprig *r = *state;
	struct rawconn *a = rawconn_open(r, true), *b = rawconn_open(r, true);
	const struct ncp_server_stats *s = ncp_server_stats(r->srv);
	uint64_t refused = 0;

	for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
		const struct pair *p = &pairs[i];
		uint8_t ha[6], hb[6], cc;

		assert_int_equal(open4c(r, a, p->first, ha), 0);
		cc = open4c(r, b, p->second, hb);
		if (cc != (p->ok ? 0 : NCP_CC_LOCK_FAIL))
			fail_msg("pair %zu: first 0x%02X, second 0x%02X: "
				 "completion 0x%02X", i, p->first, p->second,
				 cc);
		refused += !p->ok;
		assert_int_equal(s->refusals[NCP_SRV_REF_SHARE], refused);
		if (p->ok)
			assert_int_equal(close42(r, b, hb), 0);
		/* The same pair on one connection: the rule is between
		 * handles, whoever holds them. */
		cc = open4c(r, a, p->second, hb);
		assert_int_equal(cc, p->ok ? 0 : NCP_CC_LOCK_FAIL);
		refused += !p->ok;
		if (p->ok)
			assert_int_equal(close42(r, a, hb), 0);
		assert_int_equal(close42(r, a, ha), 0);
		/* Closed: the second mode opens alone. */
		assert_int_equal(open4c(r, b, p->second, hb), 0);
		assert_int_equal(close42(r, b, hb), 0);
	}
	assert_int_equal(ncp_server_open_files(r->srv), 0);
	rawconn_close(a);
	rawconn_close(b);
}

static void file_size(struct ncprig *r, const char *name, off_t want)
{
	char p[400];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", r->sys, name);
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_size, want);
}

static void create_over_a_denied_file(void **state)
{
	struct ncprig *r = *state;
	struct rawconn *a = rawconn_open(r, true), *b = rawconn_open(r, true);
	uint8_t ha[6], req[32];
	const uint8_t *rep;
	size_t l;

	assert_int_equal(open4c(r, a, R | W | DW, ha), 0);
	/* 0x43 create (truncate): refused, nothing truncated. */
	memcpy(req, "\x01\x00\x05" "F.DAT", 8);
	rep = rawconn_call(r, b, 0x43, req, 8, &l);
	assert_int_equal(rep[6], NCP_CC_LOCK_FAIL);
	file_size(r, "F.DAT", 10);
	/* 0x54 replace: the same. */
	memcpy(req, "\x01\x00\x03\x12\x05" "F.DAT", 10);
	rep = rawconn_call(r, b, 0x54, req, 10, &l);
	assert_int_equal(rep[6], NCP_CC_LOCK_FAIL);
	file_size(r, "F.DAT", 10);
	/* 0x41 (old style: read/write where it may) gets a read handle. */
	memcpy(req, "\x01\x00\x05" "F.DAT", 8);
	rep = rawconn_call(r, b, 0x41, req, 8, &l);
	assert_int_equal(rep[6], 0);
	/* Once the first is closed 0x54 opens it and truncates. */
	assert_int_equal(close42(r, a, ha), 0);
	rawconn_call(r, b, 0x18, NULL, 0, &l);	/* end of job: 0x41's */
	memcpy(req, "\x01\x00\x03\x12\x05" "F.DAT", 10);
	rep = rawconn_call(r, b, 0x54, req, 10, &l);
	assert_int_equal(rep[6], 0);
	file_size(r, "F.DAT", 0);
	rawconn_close(a);
	rawconn_close(b);
}

static void write_only_cannot_read(void **state)
{
	struct ncprig *r = *state;
	struct rawconn *a = rawconn_open(r, true);
	uint8_t h[6], req[32] = { 0 };
	size_t l;

	assert_int_equal(open4c(r, a, W, h), 0);
	memcpy(req + 1, h, 6);
	ipx_put32(req + 7, 0);
	ipx_put16(req + 11, 4);
	assert_int_equal(rawconn_call(r, a, 0x48, req, 13, &l)[6],
			 NCP_CC_NO_READ);
	assert_int_equal(close42(r, a, h), 0);
	rawconn_close(a);
}

/* The client library's put open: a second one is refused while the first
 * writes, and the first one's data stay. */
static void two_puts(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *a = ncprig_login(r, "GUEST", "");
	struct ncp_client *b = ncprig_login(r, "GUEST", "");
	struct ncp_fh fa, fb;
	char buf[16];
	size_t got;

	assert_int_equal(ncp_open(a, "P.DAT", NCP_OPEN_CREATE_DENY_WRITE, &fa),
			 0);
	assert_int_equal(ncp_write(a, &fa, 0, "first", 5), 0);
	assert_int_equal(ncp_open(b, "P.DAT", NCP_OPEN_CREATE_DENY_WRITE, &fb),
			 NCP_CC_LOCK_FAIL);
	assert_int_equal(ncp_write(a, &fa, 5, "-data", 5), 0);
	assert_int_equal(ncp_close(a, &fa), 0);
	file_size(r, "P.DAT", 10);
	/* A reader (deny none) may read a file being put. */
	assert_int_equal(ncp_open(b, "P.DAT", NCP_OPEN_CREATE_DENY_WRITE, &fb),
			 0);
	assert_int_equal(ncp_open(a, "P.DAT", NCP_OPEN_READ, &fa), 0);
	assert_int_equal(ncp_read(a, &fa, 0, buf, sizeof(buf), &got), 0);
	assert_int_equal(got, 0);	/* b truncated it */
	assert_int_equal(ncp_close(a, &fa), 0);
	assert_int_equal(ncp_close(b, &fb), 0);
	ncp_client_free(a);
	ncp_client_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(mode_pairs, setup, teardown),
		cmocka_unit_test_setup_teardown(create_over_a_denied_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(write_only_cannot_read, setup,
						teardown),
		cmocka_unit_test_setup_teardown(two_puts, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
