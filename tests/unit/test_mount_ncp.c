/*
 * test_mount_ncp.c - the client calls `ipxlab mount` added to the NCP
 * client library, against ipxlab's server on the in-memory bench
 * (ncprig): ncp_rename_dir (0x16 0x0F, within the parent) and
 * ncp_set_attributes (0x46, the read-only attribute, which the host file
 * shows as its write bits), ncp_set_stamp (0x4B, the host file's mtime).
 */
#include "cm.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ncprig.h"

static int setup(void **state)
{
	*state = ncprig_new(NULL);
	return *state ? 0 : -1;
}

static int teardown(void **state)
{
	ncprig_free(*state);
	return 0;
}

static void renames_a_directory_in_its_parent(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *cl = ncprig_login(r, "GUEST", "");
	struct ncp_entry e;
	struct ncp_fh fh;
	char host[400];
	struct stat st;

	assert_int_equal(ncp_mkdir(cl, "SYS:OLD"), 0);
	assert_int_equal(ncp_open(cl, "SYS:OLD\\F.TXT", NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_rename_dir(cl, "SYS:OLD", "NEW"), 0);
	assert_int_equal(ncp_stat(cl, "SYS:NEW\\F.TXT", &e), 0);
	assert_int_not_equal(ncp_stat(cl, "SYS:OLD", &e), 0);
	snprintf(host, sizeof(host), "%s/NEW", r->sys);
	assert_int_equal(stat(host, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* A name that is there already, a directory that is not, a name
	 * that is not 8.3: refused, nothing renamed. */
	assert_int_equal(ncp_mkdir(cl, "SYS:TWO"), 0);
	assert_int_not_equal(ncp_rename_dir(cl, "SYS:NEW", "TWO"), 0);
	assert_int_not_equal(ncp_rename_dir(cl, "SYS:NONE", "X"), 0);
	assert_int_not_equal(ncp_rename_dir(cl, "SYS:NEW", "TOOLONGNAME"), 0);
	assert_int_equal(ncp_stat(cl, "SYS:NEW", &e), 0);
	ncp_client_free(cl);
}

static void sets_the_read_only_attribute(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *cl = ncprig_login(r, "GUEST", "");
	struct ncp_entry e;
	struct ncp_fh fh;
	char host[400];
	struct stat st;

	assert_int_equal(ncp_open(cl, "SYS:RO.TXT", NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	snprintf(host, sizeof(host), "%s/RO.TXT", r->sys);
	assert_int_equal(ncp_set_attributes(cl, "SYS:RO.TXT",
					    NCP_ATTR_READ_ONLY), 0);
	assert_int_equal(ncp_stat(cl, "SYS:RO.TXT", &e), 0);
	assert_true(e.attr & NCP_ATTR_READ_ONLY);
	assert_int_equal(stat(host, &st), 0);
	assert_int_equal(st.st_mode & 0222, 0);
	assert_int_equal(ncp_set_attributes(cl, "SYS:RO.TXT", 0), 0);
	assert_int_equal(ncp_stat(cl, "SYS:RO.TXT", &e), 0);
	assert_false(e.attr & NCP_ATTR_READ_ONLY);
	assert_int_equal(stat(host, &st), 0);
	assert_true(st.st_mode & 0200);
	assert_int_not_equal(ncp_set_attributes(cl, "SYS:NONE.TXT", 0), 0);
	ncp_client_free(cl);
}

static void sets_the_date_stamp(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *cl = ncprig_login(r, "GUEST", "");
	struct ncp_entry e;
	struct ncp_fh fh, ro;
	struct tm t = { .tm_year = 101, .tm_mon = 1, .tm_mday = 3,
			.tm_hour = 4, .tm_min = 5, .tm_sec = 6,
			.tm_isdst = -1 };
	uint16_t date = (21 << 9) | (2 << 5) | 3, tm = (4 << 11) | (5 << 5) | 3;
	char host[400];
	struct stat st;

	assert_int_equal(ncp_open(cl, "SYS:T.TXT", NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_set_stamp(cl, &fh, date, tm), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_stat(cl, "SYS:T.TXT", &e), 0);
	assert_int_equal(e.date, date);
	assert_int_equal(e.time, tm);
	snprintf(host, sizeof(host), "%s/T.TXT", r->sys);
	assert_int_equal(stat(host, &st), 0);
	assert_int_equal(st.st_mtime, mktime(&t));
	/* A handle opened for reading may not change it. */
	assert_int_equal(ncp_open(cl, "SYS:T.TXT", NCP_OPEN_READ, &ro), 0);
	assert_int_equal(ncp_set_stamp(cl, &ro, date, 0), NCP_CC_NO_MODIFY);
	assert_int_equal(ncp_close(cl, &ro), 0);
	ncp_client_free(cl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(renames_a_directory_in_its_parent,
						setup, teardown),
		cmocka_unit_test_setup_teardown(sets_the_read_only_attribute,
						setup, teardown),
		cmocka_unit_test_setup_teardown(sets_the_date_stamp, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
