/*
 * test_mount_names.c - the mount's path to the server's name
 * (ipx_mount_name): DOS 8.3 names upper-cased under "VOL:" with '\'
 * between them; a longer name or path ENAMETOOLONG, a character DOS
 * cannot hold EINVAL, never a truncated name; and in the LONG name
 * space (ipx_mount_name_long) names kept as they are.
 */
#include "cm.h"

#include <errno.h>
#include <string.h>

#include "ipxlab/mount.h"

static int name(const char *path, char *out)
{
	return ipx_mount_name("sys", path, out, 300);
}

static void maps_83_paths(void **state)
{
	char out[300];

	(void)state;
	assert_int_equal(name("/", out), 0);
	assert_string_equal(out, "SYS:");
	assert_int_equal(name("/readme.txt", out), 0);
	assert_string_equal(out, "SYS:README.TXT");
	assert_int_equal(name("/dir/sub//F-1_$.C", out), 0);
	assert_string_equal(out, "SYS:DIR\\SUB\\F-1_$.C");
	assert_int_equal(name("/ABCDEFGH.IJK", out), 0);
	assert_string_equal(out, "SYS:ABCDEFGH.IJK");
	assert_int_equal(ipx_mount_name("DATA:", "/x", out, sizeof(out)), 0);
	assert_string_equal(out, "DATA:X");
}

static void refuses_long_names(void **state)
{
	char out[300];

	(void)state;
	assert_int_equal(name("/ABCDEFGHI", out), -ENAMETOOLONG);
	assert_int_equal(name("/A.TEXT", out), -ENAMETOOLONG);
	assert_int_equal(name("/longdirname/a", out), -ENAMETOOLONG);
	/* 60 names of 4 characters: a path over the server's 255 bytes. */
	{
		char p[400] = "";

		for (int i = 0; i < 60; i++)
			strcat(p, "/ABCD");
		assert_int_equal(name(p, out), -ENAMETOOLONG);
	}
	/* And a buffer too small is never filled with a cut name. */
	assert_int_equal(ipx_mount_name("SYS", "/README.TXT", out, 8),
			 -ENAMETOOLONG);
}

static void refuses_bad_characters(void **state)
{
	static const char *const bad[] = {
		"/a b", "/a*", "/a?", "/a:b", "/a+b", "/a=b", "/a;b", "/a,b",
		"/a[b", "/a]b", "/a\"b", "/a<b", "/a>b", "/a|b", "/a\\b",
		"/a.b.c", "/.hidden", "/a.", "/.", "/..", "/a\tb", "/\xc3\xa9",
	};
	char out[300];

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = name(bad[i], out);

		if (rc != -EINVAL)
			fail_msg("%s: %d, want -EINVAL", bad[i], rc);
	}
}

/* The LONG name space: names as they are, case kept; only the bytes no
 * host name shown has are refused, and names over 255 bytes. */
static void long_names_pass(void **state)
{
	char out[1024], big[300];

	(void)state;
	assert_int_equal(ipx_mount_name_long("sys", "/My Documents//Quarterly "
					     "Report 2026.txt", out,
					     sizeof(out)), 0);
	assert_string_equal(out, "SYS:My Documents\\Quarterly Report 2026.txt");
	assert_int_equal(ipx_mount_name_long("sys", "/.hidden", out,
					     sizeof(out)), 0);
	assert_string_equal(out, "SYS:.hidden");
	assert_int_equal(ipx_mount_name_long("sys", "/", out, sizeof(out)), 0);
	assert_string_equal(out, "SYS:");
	assert_int_equal(ipx_mount_name_long("sys", "/a:b", out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(ipx_mount_name_long("sys", "/a\\b", out,
					     sizeof(out)), -EINVAL);
	assert_int_equal(ipx_mount_name_long("sys", "/a*", out, sizeof(out)),
			 -EINVAL);
	assert_int_equal(ipx_mount_name_long("sys", "/a\tb", out,
					     sizeof(out)), -EINVAL);
	memset(big, 'x', 257);
	big[0] = '/';
	big[257] = '\0';
	assert_int_equal(ipx_mount_name_long("sys", big, out, sizeof(out)),
			 -ENAMETOOLONG);
	big[256] = '\0';
	assert_int_equal(ipx_mount_name_long("sys", big, out, sizeof(out)), 0);
	assert_int_equal(ipx_mount_name_long("sys", "/abcdefgh/ijklmnop", out,
					     16), -ENAMETOOLONG);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(maps_83_paths),
		cmocka_unit_test(refuses_long_names),
		cmocka_unit_test(refuses_bad_characters),
		cmocka_unit_test(long_names_pass),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
