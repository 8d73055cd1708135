/*
 * test_ncp_rights.c - trustee rights on the in-memory link: the store
 * (--rights) and its file:line errors, every refusal of a right not held
 * (with its completion code and counter), File Scan over listings,
 * inheritance down the tree, SUPERVISOR and Supervisory, the trustee
 * calls (0x16 0x0C/0x0D/0x0E/0x27/0x2A) and a revoke that takes effect
 * on the next request; without a store every logged-in user keeps all
 * rights. The refusals are checked twice: through the DOS calls and
 * through the 0x57 name-space calls (the client in the LONG name space),
 * which must not get round them.
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

struct rt {
	struct ncprig *r;
	char dir[64], file[128];
};

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

/* A rig whose store holds 'text' (NULL: no --rights at all), with
 * SYS:PUB\README.TXT, SYS:A\B, SYS:A\C and SYS:S\T. */
static struct rt *rt_new(const char *text)
{
	struct rt *t = calloc(1, sizeof(*t));
	struct ncp_server_opts o;
	char p[400];

	assert_non_null(t);
	snprintf(t->dir, sizeof(t->dir), "/tmp/ipxlab-rights.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(t->file, sizeof(t->file), "%s/rights", t->dir);
	if (text)
		put(t->file, text);
	ncprig_default_opts(&o);
	o.rights_file = text ? t->file : NULL;
	t->r = ncprig_new(&o);
	for (const char *d = "PUB\0A\0A/B\0A/C\0S\0S/T\0"; *d; d += strlen(d) + 1) {
		snprintf(p, sizeof(p), "%s/%s", t->r->sys, d);
		assert_int_equal(mkdir(p, 0755), 0);
	}
	snprintf(p, sizeof(p), "%s/PUB/README.TXT", t->r->sys);
	put(p, "hello\n");
	return t;
}

static void rt_free(struct rt *t)
{
	ncprig_free(t->r);
	unlink(t->file);
	rmdir(t->dir);
	free(t);
}

/* How the tests log in: state is one of these (prestate). */
typedef struct ncp_client *(*login_fn)(struct ncprig *, const char *,
				       const char *);
static const login_fn dos_login = ncprig_login;
static const login_fn long_login = ncprig_login_long;

static struct ncp_client *login(void **state, struct rt *t, const char *user,
				const char *pass)
{
	login_fn f = *state ? *(const login_fn *)*state : ncprig_login;
	struct ncp_client *cl = f(t->r, user, pass);

	assert_int_equal(ncp_long_names(cl), f == ncprig_login_long);
	return cl;
}

static uint64_t refused(struct rt *t, enum ncp_srv_refusal ref)
{
	return ncp_server_stats(t->r->srv)->refusals[ref];
}

static int count(const struct ncp_entry *e, void *ctx)
{
	(void)e;
	(*(int *)ctx)++;
	return 0;
}

static uint16_t eff(struct ncp_client *cl, const char *path)
{
	uint16_t r = 0xFFFF;

	assert_int_equal(ncp_effective_rights(cl, path, &r), 0);
	return r;
}

/* A 0x16 request with dh 1 (SYS:, after login): sub, then 'd'. */
static int dir16(struct ncp_client *cl, uint8_t sf, const void *d, size_t len,
		 uint8_t *rep, size_t cap, size_t *rl)
{
	uint8_t b[300];

	b[0] = 0;
	b[1] = (uint8_t)(len + 1);
	b[2] = sf;
	memcpy(b + 3, d, len);
	return ncp_request(cl, 0x16, b, len + 3, rep, cap, rl);
}

/* The one-byte answers (0x16 0x03, 0x16 0x02, 0x3E) and 0x40, 0x16 0x02
 * under File Scan, by hand. */
static void test_raw_calls(void **state)
{
	struct rt *t = rt_new("SYS:PUB ALICE RF\nSYS:A ALICE R\n");
	struct ncp_client *cl = ncprig_login(t->r, "alice", "Secret");
	uint8_t rep[64];
	size_t rl;

	(void)state;
	/* 0x16 0x03 of PUB: Read, File Scan and the 2.x Open bit */
	assert_int_equal(dir16(cl, 0x03, "\x01\x03PUB", 5, rep, sizeof(rep), &rl),
			 0);
	assert_int_equal(rl, 1);
	assert_int_equal(rep[0], 0x45);
	assert_int_equal(dir16(cl, 0x03, "\x01\x00", 2, rep, sizeof(rep), &rl), 0);
	assert_int_equal(rep[0], 0x00);	/* nothing in SYS: */
	/* 0x16 0x02 Scan Directory Information needs F: in SYS:A, no */
	assert_int_equal(dir16(cl, 0x02, "\x01\x00\x00\x03" "A\\*", 7, rep,
			       sizeof(rep), &rl), NCP_CC_NO_SEARCH);
	/* 0x40 in PUB (F): the file; in A (R only): 0x89 */
	assert_int_equal(ncp_request(cl, 0x40, "\xff\xff\x01\x06\x05PUB\\*", 10,
				     rep, sizeof(rep), &rl), 0);
	assert_int_equal(ncp_request(cl, 0x40, "\xff\xff\x01\x06\x03" "A\\*", 8,
				     rep, sizeof(rep), &rl), NCP_CC_NO_SEARCH);
	/* 0x3E on PUB answers the same byte */
	assert_int_equal(ncp_request(cl, 0x3E, "\x01\x03PUB", 5, rep,
				     sizeof(rep), &rl), 0);
	assert_int_equal(rep[5], 0x45);
	ncp_client_free(cl);
	rt_free(t);
}

static void test_store_errors(void **state)
{
	static const struct {
		const char *text, *says;
	} bad[] = {
		{ "SYS:PUB NOBODY RF\n", ":1: no such user" },
		{ "# c\nSYS:PUB ALICE RXF\n", ":2: rights are letters" },
		{ "VOL9:PUB ALICE R\n", ":1: no such volume" },
		{ "SYS:PUB ALICE R\nsys:pub alice F\n", ":2: that user has" },
		{ "SYS:PUB ALICE\n", ":1: needs PATH USER RIGHTS" },
		{ "SYS:PUB ALICE R F\n", ":1: more than PATH USER RIGHTS" },
		{ "SYS:TOOLONGNAME ALICE R\n", ":1: a name that is not DOS" },
	};
	struct ncp_server_opts o;
	char dir[] = "/tmp/ipxlab-rights.XXXXXX", file[64], err[300];

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(file, sizeof(file), "%s/rights", dir);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct ncprig *r;
		struct ncp_server *srv;

		put(file, bad[i].text);
		ncprig_default_opts(&o);
		r = ncprig_new(&o);	/* for its volumes and users */
		snprintf(o.volumes[0].name, sizeof(o.volumes[0].name), "SYS");
		snprintf(o.volumes[0].dir, sizeof(o.volumes[0].dir), "%s",
			 r->sys);
		o.nvolumes = 1;
		o.users_file = r->users;
		o.rights_file = file;
		o.name = "OTHER";
		assert_int_equal(ncp_server_new(r->srvnode->node, &o, &srv, err,
						sizeof(err)),
				 IPX_EINVAL);
		if (!strstr(err, bad[i].says) || !strstr(err, file))
			fail_msg("%s: got '%s'", bad[i].text, err);
		ncprig_free(r);
	}
	unlink(file);
	rmdir(dir);
}

/* A store inside a volume (clients could rewrite it) or in a directory
 * that is not there is refused at start. */
static void test_store_placement(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct ncp_server_opts o;
	struct ncp_server *srv;
	char file[400], err[600];

	(void)state;
	ncprig_default_opts(&o);
	o.name = "OTHER";
	snprintf(o.volumes[0].name, sizeof(o.volumes[0].name), "SYS");
	snprintf(o.volumes[0].dir, sizeof(o.volumes[0].dir), "%s", r->sys);
	o.nvolumes = 1;
	o.users_file = r->users;
	snprintf(file, sizeof(file), "%s/LOGIN/RIGHTS", r->sys);
	o.rights_file = file;
	assert_int_equal(ncp_server_new(r->srvnode->node, &o, &srv, err,
					sizeof(err)), IPX_EINVAL);
	assert_non_null(strstr(err, "inside volume SYS"));
	snprintf(file, sizeof(file), "%s/nodir/rights", r->root);
	assert_int_not_equal(ncp_server_new(r->srvnode->node, &o, &srv, err,
					    sizeof(err)), IPX_OK);
	assert_non_null(strstr(err, "nodir"));
	ncprig_free(r);
}

/* ALICE with R and F only in SYS:PUB: each change refused, by its code. */
static void test_read_only_user(void **state)
{
	struct rt *t = rt_new("# test\nSYS:PUB ALICE RF\n");
	struct ncp_client *cl = login(state, t, "alice", "Secret");
	struct ncp_fh fh;
	char buf[16];
	size_t got;
	int n = 0;

	assert_int_equal(eff(cl, "SYS:PUB"), NCP_TRUSTEE_READ | NCP_TRUSTEE_SCAN);
	assert_int_equal(ncp_open(cl, "PUB\\README.TXT", NCP_OPEN_READ, &fh), 0);
	assert_int_equal(ncp_read(cl, &fh, 0, buf, sizeof(buf), &got), 0);
	assert_int_equal(got, 6);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_list(cl, "SYS:PUB", NULL, count, &n), 0);
	assert_int_equal(n, 1);
	assert_int_equal(ncp_open(cl, "PUB\\README.TXT", NCP_OPEN_WRITE, &fh),
			 NCP_CC_NO_WRITE);
	assert_int_equal(refused(t, NCP_SRV_REF_NO_WRITE_RIGHT), 1);
	assert_int_equal(ncp_open(cl, "PUB\\NEW.TXT", NCP_OPEN_CREATE, &fh),
			 NCP_CC_NO_CREATE);
	assert_int_equal(ncp_open(cl, "PUB\\README.TXT", NCP_OPEN_CREATE, &fh),
			 NCP_CC_NO_CREATE_DELETE);
	assert_int_equal(ncp_erase(cl, "PUB\\README.TXT"), NCP_CC_NO_DELETE);
	assert_int_equal(ncp_rename(cl, "PUB\\README.TXT", "PUB\\X.TXT"),
			 NCP_CC_NO_RENAME);
	assert_int_equal(ncp_set_attributes(cl, "PUB\\README.TXT",
					    NCP_ATTR_READ_ONLY),
			 NCP_CC_NO_MODIFY);
	assert_int_equal(ncp_mkdir(cl, "PUB\\SUB"), NCP_CC_NO_CREATE);
	assert_int_equal(ncp_rmdir(cl, "PUB"), NCP_CC_NO_DELETE);
	assert_int_equal(ncp_rename_dir(cl, "PUB", "PUB2"), NCP_CC_NO_RENAME);
	assert_int_equal(refused(t, NCP_SRV_REF_NO_CREATE_RIGHT), 2);
	assert_int_equal(refused(t, NCP_SRV_REF_NO_ERASE_RIGHT), 3);
	assert_int_equal(refused(t, NCP_SRV_REF_NO_MODIFY_RIGHT), 3);
	/* Nothing happened on the host. */
	assert_int_equal(ncp_stat(cl, "PUB\\README.TXT", &(struct ncp_entry){ 0 }),
			 0);
	/* No rights at all outside PUB: not even a read. */
	assert_int_equal(ncp_open(cl, "A\\X.TXT", NCP_OPEN_CREATE, &fh),
			 NCP_CC_NO_CREATE);
	ncp_client_free(cl);
	rt_free(t);
}

/* File Scan decides every listing: 0x3F, 0x40 and 0x16 0x02. */
static void test_file_scan(void **state)
{
	struct rt *t = rt_new("SYS:PUB ALICE R\nSYS:A ALICE F\n");
	struct ncp_client *cl = login(state, t, "alice", "Secret");
	struct ncp_fh fh;
	int n = 0;

	assert_int_equal(ncp_list(cl, "SYS:PUB", NULL, count, &n),
			 NCP_CC_NO_SEARCH);
	assert_int_equal(ncp_stat(cl, "PUB\\README.TXT", &(struct ncp_entry){ 0 }),
			 NCP_CC_NO_SEARCH);
	assert_true(refused(t, NCP_SRV_REF_NO_SCAN_RIGHT) >= 2);
	/* Read without File Scan: the file opens, by name. */
	assert_int_equal(ncp_open(cl, "PUB\\README.TXT", NCP_OPEN_READ, &fh), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_list(cl, "SYS:A", NULL, count, &n), 0);
	assert_int_equal(n, 2);		/* B and C */
	assert_int_equal(ncp_list(cl, "SYS:", NULL, count, &n), NCP_CC_NO_SEARCH);
	ncp_client_free(cl);
	rt_free(t);
}

/* An assignment applies below its directory until another one replaces
 * it; Supervisory gives everything below, whatever is under it. */
static void test_inheritance(void **state)
{
	struct rt *t = rt_new("SYS:A ALICE RWCEMF\nSYS:A\\C ALICE R\n"
			      "SYS:S ALICE S\nSYS:S\\T ALICE R\n");
	struct ncp_client *cl = login(state, t, "alice", "Secret");
	struct ncp_fh fh;

	assert_int_equal(eff(cl, "SYS:A\\B"), 0xDB);	/* RWCEMF */
	assert_int_equal(ncp_open(cl, "A\\B\\NEW.TXT", NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_write(cl, &fh, 0, "x", 1), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_mkdir(cl, "A\\B\\D"), 0);
	assert_int_equal(eff(cl, "SYS:A\\B\\D"), 0xDB);
	assert_int_equal(eff(cl, "SYS:A\\C"), NCP_TRUSTEE_READ);
	assert_int_equal(ncp_open(cl, "A\\C\\NEW.TXT", NCP_OPEN_CREATE, &fh),
			 NCP_CC_NO_CREATE);
	assert_int_equal(eff(cl, "SYS:"), 0);
	assert_int_equal(eff(cl, "SYS:S\\T"), NCP_TRUSTEE_SUPER | 0xFB);
	assert_int_equal(ncp_mkdir(cl, "S\\T\\U"), 0);
	/* A file has its directory's rights. */
	assert_int_equal(eff(cl, "SYS:A\\B\\NEW.TXT"), 0xDB);
	ncp_client_free(cl);
	rt_free(t);
}

static int find_alice(const struct ncp_trustee_entry *e, void *ctx)
{
	uint16_t *r = ctx;

	if (e->id == 0x10002)	/* the third user: ALICE */
		*r = e->rights;
	return 0;
}

/* SUPERVISOR has every right, grants and revokes; the change is in the
 * store file and counts from the next request. */
static void test_grant_revoke(void **state)
{
	struct rt *t = rt_new("SYS:PUB ALICE RF\n");
	struct ncp_client *su = ncprig_login(t->r, "SUPERVISOR", "sup");
	struct ncp_client *cl = ncprig_login(t->r, "alice", "Secret");
	struct ncp_fh fh;
	char name[64], text[256] = "";
	uint16_t seen = 0;
	uint32_t id;
	FILE *f;

	(void)state;
	assert_int_equal(eff(su, "SYS:"), NCP_TRUSTEE_SUPER | 0xFB);
	assert_int_equal(ncp_user_id(su, "ALICE", &id), 0);
	assert_int_equal(ncp_user_name(su, id, name, sizeof(name)), 0);
	assert_string_equal(name, "ALICE");
	assert_int_equal(ncp_scan_trustees(su, "SYS:PUB", find_alice, &seen), 0);
	assert_int_equal(seen, NCP_TRUSTEE_READ | NCP_TRUSTEE_SCAN);
	/* ALICE has no Access Control: she can neither list nor grant. */
	assert_int_equal(ncp_scan_trustees(cl, "SYS:PUB", find_alice, &seen),
			 NCP_CC_NO_MODIFY);
	assert_int_equal(ncp_add_trustee(cl, "SYS:PUB", id, 0xFB),
			 NCP_CC_NO_MODIFY);
	assert_int_equal(refused(t, NCP_SRV_REF_NO_ACCESS_RIGHT), 2);
	assert_int_equal(ncp_open(cl, "PUB\\README.TXT", NCP_OPEN_WRITE, &fh),
			 NCP_CC_NO_WRITE);
	assert_int_equal(ncp_add_trustee(su, "SYS:PUB", id, 0x43), 0); /* RWF */
	assert_int_equal(ncp_open(cl, "PUB\\README.TXT", NCP_OPEN_WRITE, &fh), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	f = fopen(t->file, "r");
	assert_non_null(f);
	assert_true(fread(text, 1, sizeof(text) - 1, f) > 0);
	fclose(f);
	assert_non_null(strstr(text, "SYS:PUB ALICE RWF\n"));
	assert_int_equal(ncp_delete_trustee(su, "SYS:PUB", id), 0);
	assert_int_equal(ncp_open(cl, "PUB\\README.TXT", NCP_OPEN_READ, &fh),
			 NCP_CC_NO_READ);
	assert_int_equal(ncp_delete_trustee(su, "SYS:PUB", id), NCP_CC_TIMEOUT);
	assert_int_equal(ncp_add_trustee(su, "SYS:PUB", 0x7777, 1),
			 NCP_CC_NO_OBJECT);
	/* Supervisory by the word call (0x27) */
	assert_int_equal(ncp_add_trustee(su, "SYS:A", id, NCP_TRUSTEE_SUPER), 0);
	assert_int_equal(eff(cl, "SYS:A\\B"), NCP_TRUSTEE_SUPER | 0xFB);
	ncp_client_free(cl);
	ncp_client_free(su);
	rt_free(t);
}

/* A directory renamed keeps its trustees; one deleted loses them. */
static void test_rename_rmdir(void **state)
{
	struct rt *t = rt_new("SYS:A\\B ALICE RF\n");
	struct ncp_client *su = login(state, t, "SUPERVISOR", "sup");
	struct ncp_client *cl = login(state, t, "alice", "Secret");

	assert_int_equal(ncp_rename_dir(su, "A\\B", "BB"), 0);
	assert_int_equal(eff(cl, "SYS:A\\BB"), NCP_TRUSTEE_READ | NCP_TRUSTEE_SCAN);
	assert_int_equal(ncp_rmdir(su, "A\\BB"), 0);
	assert_int_equal(ncp_mkdir(su, "A\\BB"), 0);
	assert_int_equal(eff(cl, "SYS:A\\BB"), 0);
	ncp_client_free(cl);
	ncp_client_free(su);
	rt_free(t);
}

/* 0x57 0x1D Get Effective Rights of SYS:names..., by hand (style 0xFF:
 * the volume first): the rights word, or -cc. The info after it must
 * carry the same rights (offset 46 of NetWare's info structure). */
static int ns_eff(struct ncp_client *cl, int n, const char *const *names)
{
	uint8_t q[300] = { 0x1D, 4, 4, 0x06, 0x80, 0xFF, 0xFF, 0xFF, 0xFF,
			   0, 0, 0, 0, 0, 0xFF };
	uint8_t rep[600];
	size_t len = 15, rl;
	int cc;

	q[len++] = (uint8_t)(n + 1);
	q[len++] = 3;
	memcpy(q + len, "SYS", 3);
	len += 3;
	for (int i = 0; i < n; i++) {
		q[len++] = (uint8_t)strlen(names[i]);
		memcpy(q + len, names[i], strlen(names[i]));
		len += strlen(names[i]);
	}
	cc = ncp_request(cl, 0x57, q, len, rep, sizeof(rep), &rl);
	if (cc)
		return -cc;
	assert_true(rl >= 50);
	assert_int_equal(ipx_get16le(rep + 48), ipx_get16le(rep));
	return ipx_get16le(rep);
}

/* The name-space calls with long names: the rights 0x57 reports, a
 * create under a long name, a long-named directory renamed (its trustees
 * follow) and deleted (they go), all through 0x57. */
static void test_ns_calls(void **state)
{
	struct rt *t = rt_new("SYS:PUB ALICE RF\nSYS:A ALICE RWCEMF\n"
			      "SYS:A\\B ALICE RF\n");
	struct ncp_client *su = ncprig_login_long(t->r, "SUPERVISOR", "sup");
	struct ncp_client *cl = ncprig_login_long(t->r, "alice", "Secret");
	struct ncp_fh fh;

	(void)state;
	assert_int_equal(ns_eff(cl, 0, NULL), 0);
	assert_int_equal(ns_eff(cl, 1, (const char *[]){ "PUB" }), 0x45);
	assert_int_equal(ns_eff(cl, 2, (const char *[]){ "PUB", "README.TXT" }),
			 0x45);
	assert_int_equal(ns_eff(cl, 1, (const char *[]){ "A" }), 0xDF);
	assert_int_equal(ns_eff(su, 1, (const char *[]){ "PUB" }), 0xFF);
	assert_int_equal(ncp_open(cl, "PUB\\A long name.txt", NCP_OPEN_CREATE,
				  &fh), NCP_CC_NO_CREATE);
	assert_int_equal(ncp_open(cl, "A\\A long name.txt", NCP_OPEN_CREATE,
				  &fh), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	/* No Modify in A\B: its own rights decide a rename. */
	assert_int_equal(ncp_rename_dir(cl, "A\\B", "Big Folder"),
			 NCP_CC_NO_RENAME);
	assert_int_equal(ncp_rename_dir(su, "A\\B", "Big Folder"), 0);
	assert_int_equal(ns_eff(cl, 2, (const char *[]){ "A", "Big Folder" }),
			 0x45);
	assert_int_equal(ncp_rmdir(cl, "A\\Big Folder"), NCP_CC_NO_DELETE);
	assert_int_equal(ncp_rmdir(su, "A\\Big Folder"), 0);
	assert_int_equal(ncp_mkdir(cl, "A\\Big Folder"), 0);
	assert_int_equal(ns_eff(cl, 2, (const char *[]){ "A", "Big Folder" }),
			 0xDF);
	/* A file in PUB moved into A needs Modify in PUB. */
	assert_int_equal(ncp_rename(cl, "PUB\\README.TXT", "A\\R.TXT"),
			 NCP_CC_NO_RENAME);
	ncp_client_free(cl);
	ncp_client_free(su);
	rt_free(t);
}

/* No --rights: as before, every logged-in user has all rights, and there
 * is no store to add trustees to (0xFB). */
static void test_no_store(void **state)
{
	struct rt *t = rt_new(NULL);
	struct ncp_client *cl = ncprig_login(t->r, "alice", "Secret");
	struct ncp_fh fh;

	(void)state;
	assert_int_equal(eff(cl, "SYS:PUB"), NCP_TRUSTEE_SUPER | 0xFB);
	assert_int_equal(eff(cl, "DATA:"), NCP_TRUSTEE_READ | NCP_TRUSTEE_SCAN);
	assert_int_equal(ncp_open(cl, "PUB\\NEW.TXT", NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_add_trustee(cl, "SYS:PUB", 1, 1),
			 NCP_CC_UNKNOWN_REQUEST);
	ncp_client_free(cl);
	rt_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_store_errors),
		cmocka_unit_test(test_store_placement),
		cmocka_unit_test(test_raw_calls),
		cmocka_unit_test_prestate(test_read_only_user, (void *)&dos_login),
		cmocka_unit_test_prestate(test_read_only_user, (void *)&long_login),
		cmocka_unit_test_prestate(test_file_scan, (void *)&dos_login),
		cmocka_unit_test_prestate(test_file_scan, (void *)&long_login),
		cmocka_unit_test_prestate(test_inheritance, (void *)&dos_login),
		cmocka_unit_test_prestate(test_inheritance, (void *)&long_login),
		cmocka_unit_test(test_grant_revoke),
		cmocka_unit_test_prestate(test_rename_rmdir, (void *)&dos_login),
		cmocka_unit_test_prestate(test_rename_rmdir, (void *)&long_login),
		cmocka_unit_test(test_ns_calls),
		cmocka_unit_test(test_no_store),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
