/*
 * test_ncp_safety.c - escape tests for the NCP server: '..' above the
 * root, other and unknown volume prefixes, absolute and overlong paths,
 * symbolic links (to a directory, to a file, to '..') and special files,
 * bytes that make no DOS name, paths outside SYS:LOGIN before login,
 * read-only volumes and the per-connection limits. Each asserts the
 * completion code, the named counter, and that nothing outside the
 * volume was read or changed. Also the host name mapping: names that are
 * not 8.3 show under an alias, lower case is found, case twins resolve
 * to one and the other twin has an alias.
 */
#include "cm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ncprig.h"

/* Everything under the rig's root except SYS's own tree, as one string:
 * names, sizes, modes and contents (and the access time of the secret,
 * so a read would show). */
static void snapshot(const struct ncprig *r, char *out, size_t cap)
{
	char p[1200], buf[64];
	struct stat st;
	FILE *f;
	size_t n;

	snprintf(p, sizeof(p), "%s/SECRET.TXT", r->outside);
	f = fopen(p, "r");
	assert_non_null(f);
	n = fread(out, 1, 16, f);
	fclose(f);
	/* Read first, then the times: our own read is not what is seen. */
	assert_int_equal(stat(p, &st), 0);
	n += (size_t)snprintf(out + n, cap - n, " %lld %o %lld.%09ld\n",
			      (long long)st.st_size, st.st_mode,
			      (long long)st.st_atim.tv_sec, st.st_atim.tv_nsec);
	/* SYS's own entry changes with every file made in it: left out. */
	snprintf(p, sizeof(p), "ls -la --time-style=+%%s %s %s %s | "
		 "grep -v ' sys$' | grep -v ' [.][.]*$' | grep -v '^total' | sort",
		 r->outside, r->root, r->data);
	f = popen(p, "r");
	assert_non_null(f);
	while (fgets(buf, sizeof(buf), f) && n + sizeof(buf) < cap) {
		strcpy(out + n, buf);
		n += strlen(buf);
	}
	pclose(f);
}

struct safe {
	struct ncprig *r;
	struct ncp_client *cl;
	char before[8192];
};

static int setup(void **state)
{
	struct safe *s = calloc(1, sizeof(*s));
	char p[700], q[700];
	FILE *f;

	s->r = ncprig_new(NULL);
	/* Links out of the volume, a FIFO, and names of every kind. */
	snprintf(p, sizeof(p), "%s/LINK", s->r->sys);
	assert_int_equal(symlink(s->r->outside, p), 0);
	snprintf(p, sizeof(p), "%s/SECFILE.TXT", s->r->sys);
	snprintf(q, sizeof(q), "%s/SECRET.TXT", s->r->outside);
	assert_int_equal(symlink(q, p), 0);
	snprintf(p, sizeof(p), "%s/UP", s->r->sys);
	assert_int_equal(symlink("..", p), 0);
	snprintf(p, sizeof(p), "%s/PIPE", s->r->sys);
	assert_int_equal(mkfifo(p, 0644), 0);
	snprintf(p, sizeof(p), "%s/longfilename.txt", s->r->sys);
	f = fopen(p, "w");
	fputs("long\n", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/lower.txt", s->r->sys);
	f = fopen(p, "w");
	fputs("lower\n", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/Twin.txt", s->r->sys);
	f = fopen(p, "w");
	fputs("mixed\n", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/TWIN.TXT", s->r->sys);
	f = fopen(p, "w");
	fputs("upper\n", f);
	fclose(f);
	s->cl = ncprig_login(s->r, "GUEST", "");
	snapshot(s->r, s->before, sizeof(s->before));
	*state = s;
	return 0;
}

static int teardown(void **state)
{
	struct safe *s = *state;
	char after[8192];

	/* Whatever a test sent, nothing outside SYS changed or was read. */
	snapshot(s->r, after, sizeof(after));
	assert_string_equal(after, s->before);
	ncp_client_free(s->cl);
	ncprig_free(s->r);
	free(s);
	return 0;
}

static uint64_t refused(struct safe *s, enum ncp_srv_refusal why)
{
	return ncp_server_stats(s->r->srv)->refusals[why];
}

/* Open (or create) must fail with cc, counting 'why' once more. */
static void expect(struct safe *s, const char *path, enum ncp_open_mode m,
		   int cc, enum ncp_srv_refusal why)
{
	uint64_t before = refused(s, why);
	struct ncp_fh fh;

	int rc = ncp_open(s->cl, path, m, &fh);

	if (rc != cc || refused(s, why) != before + 1)
		fail_msg("%s: got %02X (want %02X), %s counted %llu times",
			 path, rc, cc, ncp_srv_refusal_name(why),
			 (unsigned long long)(refused(s, why) - before));
}

static void test_dotdot(void **state)
{
	struct safe *s = *state;

	expect(s, "..\\outside\\SECRET.TXT", NCP_OPEN_READ, NCP_CC_BAD_PATH,
	       NCP_SRV_REF_ABOVE_ROOT);
	expect(s, "SYS:../outside/SECRET.TXT", NCP_OPEN_CREATE,
	       NCP_CC_BAD_PATH, NCP_SRV_REF_ABOVE_ROOT);
	assert_int_equal(ncp_mkdir(s->cl, "SYS:SUB"), 0);
	expect(s, "SUB\\..\\..\\outside\\SECRET.TXT", NCP_OPEN_READ,
	       NCP_CC_BAD_PATH, NCP_SRV_REF_ABOVE_ROOT);
	expect(s, "DATA:..\\sys\\X.TXT", NCP_OPEN_CREATE, NCP_CC_BAD_PATH,
	       NCP_SRV_REF_ABOVE_ROOT);
	/* '..' that stays inside is fine. */
	{
		struct ncp_fh fh;

		assert_int_equal(ncp_open(s->cl, "SUB\\..\\LOWER.TXT",
					  NCP_OPEN_READ, &fh), 0);
		assert_int_equal(ncp_close(s->cl, &fh), 0);
	}
	assert_int_equal(ncp_erase(s->cl, "..\\outside\\*.*"), NCP_CC_BAD_PATH);
	assert_int_equal(ncp_rename(s->cl, "LOWER.TXT", "..\\outside\\L.TXT"),
			 NCP_CC_BAD_PATH);
	assert_int_equal(ncp_mkdir(s->cl, "..\\NEWDIR"), NCP_CC_BAD_PATH);
}

static void test_volume_prefix(void **state)
{
	struct safe *s = *state;

	expect(s, "OUTSIDE:SECRET.TXT", NCP_OPEN_READ, NCP_CC_NO_VOLUME,
	       NCP_SRV_REF_NO_VOLUME);
	expect(s, ":SECRET.TXT", NCP_OPEN_READ, NCP_CC_NO_VOLUME,
	       NCP_SRV_REF_NO_VOLUME);
	expect(s, "SYS:LINK\\DATA:README.TXT", NCP_OPEN_READ, NCP_CC_BAD_PATH,
	       NCP_SRV_REF_NO_VOLUME);
	expect(s, "AVERYLONGVOLUMENAME:X", NCP_OPEN_READ, NCP_CC_NO_VOLUME,
	       NCP_SRV_REF_NO_VOLUME);
	/* A real other volume is reachable, as on NetWare, read-only here. */
	expect(s, "DATA:NEW.TXT", NCP_OPEN_CREATE, NCP_CC_NO_CREATE,
	       NCP_SRV_REF_READ_ONLY);
}

static void test_absolute_paths(void **state)
{
	struct safe *s = *state;
	struct ncp_fh fh;
	char p[700], deep[400] = "";
	struct stat st;
	uint64_t sym = refused(s, NCP_SRV_REF_SYMLINK);

	assert_int_equal(ncp_open(s->cl, "/etc/passwd", NCP_OPEN_READ, &fh),
			 NCP_CC_BAD_PATH);
	assert_int_equal(ncp_open(s->cl, "\\TMP\\NCPESC.TXT", NCP_OPEN_CREATE,
				  &fh), NCP_CC_BAD_PATH);
	assert_int_equal(stat("/tmp/NCPESC.TXT", &st), -1);
	/* The host path of the secret: its components are no 8.3 names. */
	snprintf(p, sizeof(p), "%s/SECRET.TXT", s->r->outside);
	expect(s, p, NCP_OPEN_READ, NCP_CC_BAD_PATH, NCP_SRV_REF_OVERLONG);
	/* Too deep: 17 levels. */
	for (int i = 0; i < 17; i++)
		strcat(deep, "D\\");
	strcat(deep, "F.TXT");
	expect(s, deep, NCP_OPEN_CREATE, NCP_CC_BAD_PATH,
	       NCP_SRV_REF_OVERLONG);
	/* A component of 13 characters; a base of 9. */
	expect(s, "ABCDEFGHIJKLM", NCP_OPEN_CREATE, NCP_CC_BAD_PATH,
	       NCP_SRV_REF_OVERLONG);
	expect(s, "ABCDEFGHI.TXT", NCP_OPEN_CREATE, NCP_CC_BAD_PATH,
	       NCP_SRV_REF_OVERLONG);
	expect(s, "ABCDEFGHI.TX", NCP_OPEN_CREATE, NCP_CC_BAD_NAME,
	       NCP_SRV_REF_BAD_BYTES);
	assert_int_equal(refused(s, NCP_SRV_REF_SYMLINK), sym);
}

static int collect(const struct ncp_entry *e, void *ctx)
{
	strcat(ctx, e->name);
	strcat(ctx, " ");
	return 0;
}

static void test_symlinks(void **state)
{
	struct safe *s = *state;
	struct ncp_fh fh;
	uint8_t buf[16];
	char list[512] = "";
	struct ncp_entry e;
	size_t got;

	expect(s, "LINK\\SECRET.TXT", NCP_OPEN_READ, NCP_CC_BAD_PATH,
	       NCP_SRV_REF_SYMLINK);
	expect(s, "SYS:LINK\\NEW.TXT", NCP_OPEN_CREATE, NCP_CC_BAD_PATH,
	       NCP_SRV_REF_SYMLINK);
	expect(s, "SECFILE.TXT", NCP_OPEN_READ, NCP_CC_FAILURE,
	       NCP_SRV_REF_SYMLINK);
	/* Create (truncate) over a link to a file: refused, not followed. */
	expect(s, "SECFILE.TXT", NCP_OPEN_CREATE, NCP_CC_FAILURE,
	       NCP_SRV_REF_SYMLINK);
	expect(s, "SECFILE.TXT", NCP_OPEN_CREATE_NEW, NCP_CC_FAILURE,
	       NCP_SRV_REF_SYMLINK);
	expect(s, "UP\\outside\\SECRET.TXT", NCP_OPEN_READ, NCP_CC_BAD_PATH,
	       NCP_SRV_REF_SYMLINK);
	expect(s, "PIPE", NCP_OPEN_READ, NCP_CC_FAILURE, NCP_SRV_REF_SYMLINK);
	/* Erase and rename do not touch links either. */
	assert_int_equal(ncp_erase(s->cl, "SECFILE.TXT"), NCP_CC_FAILURE);
	assert_int_equal(ncp_erase(s->cl, "LINK\\*.*"), NCP_CC_BAD_PATH);
	assert_int_equal(ncp_rename(s->cl, "SECFILE.TXT", "X.TXT"),
			 NCP_CC_FAILURE);
	assert_int_equal(ncp_rename(s->cl, "LOWER.TXT", "SECFILE.TXT"),
			 NCP_CC_NAME_EXISTS);
	assert_int_equal(ncp_rmdir(s->cl, "LINK"), NCP_CC_BAD_PATH);
	assert_int_equal(ncp_rmdir(s->cl, "UP"), NCP_CC_BAD_PATH);
	assert_int_equal(ncp_list(s->cl, "LINK", NULL, collect, list),
			 NCP_CC_BAD_PATH);
	assert_int_equal(ncp_stat(s->cl, "SECFILE.TXT", &e), NCP_CC_FAILURE);
	/* Listings show no link or FIFO; lower case shows upper, case twins
	 * once under the name, resolving to the byte-wise smallest host
	 * name; the long name and the other twin under their aliases. */
	assert_int_equal(ncp_list(s->cl, "SYS:", NULL, collect, list), 0);
	assert_string_equal(list, "LOBBC3~1.TXT LOGIN LOWER.TXT TW30CC~1.TXT "
			    "TWIN.TXT ");
	assert_int_equal(ncp_open(s->cl, "lobbc3~1.txt", NCP_OPEN_READ, &fh), 0);
	assert_int_equal(ncp_read(s->cl, &fh, 0, buf, sizeof(buf), &got), 0);
	assert_memory_equal(buf, "long\n", 5);
	assert_int_equal(ncp_close(s->cl, &fh), 0);
	assert_int_equal(ncp_open(s->cl, "TW30CC~1.TXT", NCP_OPEN_READ, &fh), 0);
	assert_int_equal(ncp_read(s->cl, &fh, 0, buf, sizeof(buf), &got), 0);
	assert_memory_equal(buf, "mixed\n", 6);
	assert_int_equal(ncp_close(s->cl, &fh), 0);
	assert_int_equal(ncp_open(s->cl, "twin.txt", NCP_OPEN_READ, &fh), 0);
	assert_int_equal(ncp_read(s->cl, &fh, 0, buf, sizeof(buf), &got), 0);
	assert_memory_equal(buf, "upper\n", 6);
	assert_int_equal(ncp_close(s->cl, &fh), 0);
	assert_int_equal(ncp_open(s->cl, "LOWER.TXT", NCP_OPEN_READ, &fh), 0);
	assert_int_equal(ncp_read(s->cl, &fh, 0, buf, sizeof(buf), &got), 0);
	assert_memory_equal(buf, "lower\n", 6);
	assert_int_equal(ncp_close(s->cl, &fh), 0);
	assert_int_equal(ncp_open(s->cl, "LONGFILE.TXT", NCP_OPEN_READ, &fh),
			 NCP_CC_FAILURE);
}

static void test_bad_bytes(void **state)
{
	struct safe *s = *state;
	struct ncp_fh fh;
	uint8_t req[32];

	expect(s, "A\x01.TXT", NCP_OPEN_CREATE, NCP_CC_BAD_NAME,
	       NCP_SRV_REF_BAD_BYTES);
	expect(s, "\xE9T\xE9.TXT", NCP_OPEN_CREATE, NCP_CC_BAD_NAME,
	       NCP_SRV_REF_BAD_BYTES);
	expect(s, "A B.TXT", NCP_OPEN_CREATE, NCP_CC_BAD_NAME,
	       NCP_SRV_REF_BAD_BYTES);
	expect(s, "A.B.C", NCP_OPEN_CREATE, NCP_CC_BAD_NAME,
	       NCP_SRV_REF_BAD_BYTES);
	expect(s, ".PROFILE", NCP_OPEN_CREATE, NCP_CC_BAD_NAME,
	       NCP_SRV_REF_BAD_BYTES);
	expect(s, "A\\x\x7F\\B.TXT", NCP_OPEN_CREATE, NCP_CC_BAD_PATH,
	       NCP_SRV_REF_BAD_BYTES);
	expect(s, "*.TXT", NCP_OPEN_READ, NCP_CC_BAD_NAME,
	       NCP_SRV_REF_WILDCARD);
	expect(s, "*\\A.TXT", NCP_OPEN_READ, NCP_CC_BAD_PATH,
	       NCP_SRV_REF_WILDCARD);
	/* A NUL inside the length-prefixed name (0x4C by hand). */
	req[0] = 1;
	req[1] = 0;
	req[2] = 1;
	req[3] = 7;
	memcpy(req + 4, "A.T\0/XX", 7);
	{
		uint64_t before = refused(s, NCP_SRV_REF_BAD_BYTES);

		assert_int_equal(ncp_request(s->cl, 0x4C, req, 11, NULL, 0,
					     NULL), NCP_CC_BAD_PATH);
		assert_int_equal(refused(s, NCP_SRV_REF_BAD_BYTES), before + 1);
	}
	/* A name length past the end of the request: malformed. */
	req[3] = 200;
	{
		uint64_t before = refused(s, NCP_SRV_REF_MALFORMED);

		assert_int_equal(ncp_request(s->cl, 0x4C, req, 11, NULL, 0,
					     NULL), NCP_CC_FAILURE);
		assert_int_equal(refused(s, NCP_SRV_REF_MALFORMED), before + 1);
	}
	(void)fh;
}

/* A file name followed by '\', '/', '/.' or '\..' names a directory:
 * refused as a bad path (0x9C, dir_as_file) by open, create, erase,
 * rename and set attributes, and nothing is made; a directory call may
 * still end in a separator. */
static void test_dir_as_file(void **state)
{
	struct safe *s = *state;
	static const char *const bad[] = {
		"SYS:NEW/", "NEW\\", "SYS:NEW/.", "NEW\\.", "SUBX\\NEW\\..",
		"SYS:LOWER.TXT\\", "LOWER.TXT/.",
	};
	char p[400];
	struct stat st;
	uint64_t before;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		expect(s, bad[i], NCP_OPEN_CREATE, NCP_CC_BAD_PATH,
		       NCP_SRV_REF_DIR_AS_FILE);
		expect(s, bad[i], NCP_OPEN_READ, NCP_CC_BAD_PATH,
		       NCP_SRV_REF_DIR_AS_FILE);
		expect(s, bad[i], NCP_OPEN_CREATE_DENY_WRITE, NCP_CC_BAD_PATH,
		       NCP_SRV_REF_DIR_AS_FILE);
	}
	snprintf(p, sizeof(p), "%s/NEW", s->r->sys);
	assert_int_equal(stat(p, &st), -1);
	before = refused(s, NCP_SRV_REF_DIR_AS_FILE);
	assert_int_equal(ncp_erase(s->cl, "LOWER.TXT\\"), NCP_CC_BAD_PATH);
	assert_int_equal(ncp_rename(s->cl, "LOWER.TXT/", "L2.TXT"),
			 NCP_CC_BAD_PATH);
	assert_int_equal(ncp_rename(s->cl, "LOWER.TXT", "L2.TXT\\"),
			 NCP_CC_BAD_PATH);
	assert_int_equal(refused(s, NCP_SRV_REF_DIR_AS_FILE), before + 3);
	snprintf(p, sizeof(p), "%s/lower.txt", s->r->sys);
	assert_int_equal(stat(p, &st), 0);
	/* The plain names still work; a directory may end in '\'. */
	assert_int_equal(ncp_mkdir(s->cl, "SYS:NEWDIR\\"), 0);
	assert_int_equal(ncp_rmdir(s->cl, "NEWDIR/"), 0);
	assert_int_equal(ncp_rename(s->cl, "\\LOWER.TXT", "L2.TXT"), 0);
	assert_int_equal(ncp_rename(s->cl, "L2.TXT", "lower.txt"), 0);
}

static void test_before_login(void **state)
{
	struct safe *s = *state;
	struct rawconn *b = rawconn_open(s->r, false);
	uint64_t before = refused(s, NCP_SRV_REF_LOGIN_ONLY);
	const uint8_t *rep;
	size_t l;

	uint8_t cont[13] = { 0 };

	/* 0x16 0x12 allocate a handle on DATA: or on a file of SYS's root
	 * - refused. */
	rep = rawconn_call(s->r, b, 0x16, "\x00\x08\x12\x00\x5A\x05" "DATA:", 11,
			   &l);
	assert_int_equal(rep[6], NCP_CC_BAD_PATH);
	rep = rawconn_call(s->r, b, 0x16,
			   "\x00\x10\x12\x00\x5A\x0DSYS:LOWER.TXT", 19, &l);
	assert_int_equal(rep[6], NCP_CC_BAD_PATH);
	rep = rawconn_call(s->r, b, 0x16,
			   "\x00\x19\x12\x00\x5A\x16SYS:LOGIN\\..\\LOWER.TXT",
			   28, &l);
	assert_int_equal(rep[6], NCP_CC_BAD_PATH);
	assert_int_equal(refused(s, NCP_SRV_REF_LOGIN_ONLY), before + 3);
	/* The root of SYS is the way to LOGIN: a search of it (0x3E, 0x3F
	 * "*.*" with directories) finds LOGIN and nothing else. */
	rep = rawconn_call(s->r, b, 0x3E, "\x00\x04SYS:", 6, &l);
	assert_int_equal(rep[6], 0);
	memcpy(cont, rep + 8, 3);	/* volume, search id */
	memcpy(cont + 3, "\xFF\xFF\x10\x03*.*", 7);
	rep = rawconn_call(s->r, b, 0x3F, (const char *)cont, 10, &l);
	assert_int_equal(rep[6], 0);
	assert_memory_equal(rep + 12, "LOGIN", 6);
	memcpy(cont + 3, rep + 8, 2);	/* on from LOGIN's number */
	rep = rawconn_call(s->r, b, 0x3F, (const char *)cont, 10, &l);
	assert_int_equal(rep[6], NCP_CC_FAILURE);
	/* SYS:LOGIN itself is fine (handle 1), read-only. */
	rep = rawconn_call(s->r, b, 0x16, "\x00\x0C\x12\x00\x5A\x09SYS:LOGIN",
			   15, &l);
	assert_int_equal(rep[6], 0);
	assert_int_equal(rep[8], 1);
	/* 0x43 create in SYS:LOGIN: refused before login. */
	rep = rawconn_call(s->r, b, 0x43, "\x01\x00\x05X.TXT", 8, &l);
	assert_int_equal(rep[6], NCP_CC_NO_CREATE);
	/* 0x4C open of ..\LOWER.TXT from SYS:LOGIN. */
	rep = rawconn_call(s->r, b, 0x4C, "\x01\x00\x01\x0C..\\LOWER.TXT", 16,
			   &l);
	assert_int_equal(rep[6], NCP_CC_BAD_PATH);
	assert_int_equal(refused(s, NCP_SRV_REF_LOGIN_ONLY), before + 4);
	rawconn_close(b);
}

/* SYS:LOGIN, all a client sees before login, cannot be renamed (0x16
 * 0x0F, by its name, a volume path, a leading separator), moved (0x45),
 * deleted, or have its attributes set, by a logged-in user; clients that
 * have not logged in still reach it. */
static void test_login_dir_kept(void **state)
{
	struct safe *s = *state;
	struct rawconn *a = rawconn_open(s->r, true), *b;
	uint64_t before = refused(s, NCP_SRV_REF_LOGIN_DIR);
	const uint8_t *rep;
	size_t l;
	char p[400];
	struct stat st;

	/* 0x16 0x0F dh 1 (SYS:) "LOGIN" -> "X" */
	rep = rawconn_call(s->r, a, 0x16,
			   "\x00\x0A\x0F\x01\x05LOGIN\x01X", 12, &l);
	assert_int_equal(rep[6], NCP_CC_NO_RENAME);
	rep = rawconn_call(s->r, a, 0x16,
			   "\x00\x0E\x0F\x01\x09sys:login\x01X", 16, &l);
	assert_int_equal(rep[6], NCP_CC_NO_RENAME);
	rep = rawconn_call(s->r, a, 0x16,
			   "\x00\x0F\x0F\x01\x0ASYS:\\LOGIN\x01X", 17, &l);
	assert_int_equal(rep[6], NCP_CC_NO_RENAME);
	assert_int_equal(refused(s, NCP_SRV_REF_LOGIN_DIR), before + 3);
	/* 0x45 move it under another name, 0x46 set its attributes, 0x16
	 * 0x0B delete it: each refused. */
	rep = rawconn_call(s->r, a, 0x45,
			   "\x01\x16\x05LOGIN\x01\x05OTHER", 15, &l);
	assert_int_not_equal(rep[6], 0);
	rep = rawconn_call(s->r, a, 0x46, "\x01\x01\x16\x05LOGIN", 9, &l);
	assert_int_not_equal(rep[6], 0);
	rep = rawconn_call(s->r, a, 0x16, "\x00\x09\x0B\x01\x00\x05LOGIN", 11,
			   &l);
	assert_int_equal(rep[6], NCP_CC_DIR_IN_USE);
	assert_int_equal(refused(s, NCP_SRV_REF_LOGIN_DIR), before + 4);
	snprintf(p, sizeof(p), "%s/LOGIN", s->r->sys);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	/* Another directory still renames. */
	rep = rawconn_call(s->r, a, 0x16, "\x00\x08\x0A\x01\x00\x04" "DOCS",
			   10, &l);
	assert_int_equal(rep[6], 0);
	rep = rawconn_call(s->r, a, 0x16, "\x00\x0A\x0F\x01\x04" "DOCS\x02XY",
			   12, &l);
	assert_int_equal(rep[6], 0);
	snprintf(p, sizeof(p), "%s/XY", s->r->sys);
	assert_int_equal(stat(p, &st), 0);
	/* A client before login still finds SYS:LOGIN. */
	b = rawconn_open(s->r, false);
	rep = rawconn_call(s->r, b, 0x16, "\x00\x0C\x12\x00\x5A\x09SYS:LOGIN",
			   15, &l);
	assert_int_equal(rep[6], 0);
	rawconn_close(a);
	rawconn_close(b);
}

static void test_read_only_changes(void **state)
{
	struct safe *s = *state;
	uint8_t req[32];
	uint64_t before = refused(s, NCP_SRV_REF_READ_ONLY);

	assert_int_equal(ncp_erase(s->cl, "DATA:*.*"), NCP_CC_NO_DELETE);
	assert_int_equal(ncp_rmdir(s->cl, "DATA:X"), NCP_CC_NO_DELETE);
	/* 0x46 set attributes, 0x54 open/create replace. */
	req[0] = 0;
	req[1] = 1;
	req[2] = 0;
	req[3] = 15;
	memcpy(req + 4, "DATA:README.TXT", 15);
	assert_int_equal(ncp_request(s->cl, 0x46, req, 19, NULL, 0, NULL),
			 NCP_CC_NO_MODIFY);
	req[0] = 1;
	req[1] = 0;
	req[2] = 3;
	req[3] = NCP_ACT_REPLACE;
	req[4] = 15;
	memcpy(req + 5, "DATA:README.TXT", 15);
	assert_int_equal(ncp_request(s->cl, 0x54, req, 20, NULL, 0, NULL),
			 NCP_CC_NO_CREATE);
	assert_int_equal(refused(s, NCP_SRV_REF_READ_ONLY), before + 4);
}

static void test_limits(void **state)
{
	struct ncp_server_opts o;
	struct ncprig *r;
	struct ncp_client *cl;
	struct ncp_fh fh[4];
	const struct ncp_server_stats *st;

	(void)state;
	ncprig_default_opts(&o);
	o.max_handles = 3;
	o.max_locks = 2;
	r = ncprig_new(&o);
	st = ncp_server_stats(r->srv);
	cl = ncprig_login(r, "GUEST", "");
	for (int i = 0; i < 3; i++)
		assert_int_equal(ncp_open(cl, "F.TXT", NCP_OPEN_CREATE, &fh[i]),
				 0);
	assert_int_equal(ncp_open(cl, "F.TXT", NCP_OPEN_READ, &fh[3]),
			 NCP_CC_NO_HANDLES);
	assert_int_equal(st->refusals[NCP_SRV_REF_HANDLES], 1);
	assert_int_equal(ncp_lock_record(cl, &fh[0], 1, 0, 1, 0), 0);
	assert_int_equal(ncp_lock_record(cl, &fh[0], 1, 1, 1, 0), 0);
	assert_int_equal(ncp_lock_record(cl, &fh[0], 1, 2, 1, 0),
			 NCP_CC_NO_MEMORY);
	assert_int_equal(st->refusals[NCP_SRV_REF_LOCKS], 1);
	/* Closing frees the handle and its locks. */
	assert_int_equal(ncp_close(cl, &fh[0]), 0);
	assert_int_equal(ncp_server_lock_count(r->srv), 0);
	assert_int_equal(ncp_open(cl, "F.TXT", NCP_OPEN_READ, &fh[3]), 0);
	/* A handle of the right shape that is not ours. */
	fh[0].h[4] ^= 2;	/* a generation slot 0 never had */
	assert_int_equal(ncp_close(cl, &fh[0]), NCP_CC_BAD_HANDLE);
	assert_true(st->refusals[NCP_SRV_REF_BAD_HANDLE] >= 1);
	ncp_client_free(cl);
	ncprig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_dotdot, setup, teardown),
		cmocka_unit_test_setup_teardown(test_volume_prefix, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_absolute_paths, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_symlinks, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_bytes, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_dir_as_file, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_before_login, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_login_dir_kept, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_read_only_changes, setup,
						teardown),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
