/*
 * test_ncp_server.c - the NCP server as its operator meets it: --volume
 * specifications and every refusal at start with its message (no SYS,
 * a volume twice, a missing directory, a bad server name, a bad users
 * file by file:line), the users file's logins, the statistics printed on
 * SIGUSR1, and the packets the server drops without an answer, each by
 * its named counter: short, not NCP, a LIP create, a bad watchdog
 * answer, a new request while one waits on a lock (not executed), and
 * volume prefixes that only begin a volume's name. The volumes checked at
 * start (LOGIN, a directory it cannot write), a name another server has,
 * the watchdog with connection numbers above 255 and its socket 0x4001,
 * and replies to a client whose network no router announces.
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

/* ---- --volume NAME=DIR[,ro] ---- */

static void volume_specs(void **state)
{
	struct ncp_volume_spec v;
	char err[256];

	(void)state;
	assert_int_equal(ncp_volume_spec_parse("sys=/srv/a", &v, err,
					       sizeof(err)), 0);
	assert_string_equal(v.name, "SYS");
	assert_string_equal(v.dir, "/srv/a");
	assert_false(v.read_only);
	assert_int_equal(ncp_volume_spec_parse("Data_1=/srv/b,ro", &v, err,
					       sizeof(err)), 0);
	assert_string_equal(v.name, "DATA_1");
	assert_string_equal(v.dir, "/srv/b");
	assert_true(v.read_only);
	assert_int_equal(ncp_volume_spec_parse("X-2=/srv/c,rw", &v, err,
					       sizeof(err)), 0);
	assert_string_equal(v.dir, "/srv/c");
	assert_false(v.read_only);
	/* A name of 15 is the most; the directory keeps its case. */
	assert_int_equal(ncp_volume_spec_parse("ABCDEFGHIJKLMNO=/Mixed", &v,
					       err, sizeof(err)), 0);
	assert_string_equal(v.dir, "/Mixed");
	assert_int_equal(ncp_volume_spec_parse("ABCDEFGHIJKLMNOP=/x", &v, err,
					       sizeof(err)), -1);
	assert_non_null(strstr(err, "1 to 15 characters"));
	assert_int_equal(ncp_volume_spec_parse("/srv/a", &v, err,
					       sizeof(err)), -1);
	assert_non_null(strstr(err, "is not NAME=DIR[,ro]"));
	assert_int_equal(ncp_volume_spec_parse("=/srv/a", &v, err,
					       sizeof(err)), -1);
	assert_non_null(strstr(err, "is not NAME=DIR[,ro]"));
	assert_int_equal(ncp_volume_spec_parse("S.Y=/srv/a", &v, err,
					       sizeof(err)), -1);
	assert_string_equal(err, "volume name 'S.Y': letters, digits, '_' "
				 "and '-' only");
	assert_int_equal(ncp_volume_spec_parse("SYS=", &v, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "volume SYS: no directory");
	/* ",ro" alone is the flag without a directory, not a directory. */
	assert_int_equal(ncp_volume_spec_parse("SYS=,ro", &v, err, sizeof(err)),
			 -1);
	assert_string_equal(err, "volume SYS: no directory");
	assert_int_equal(ncp_volume_spec_parse("SYS=,rw", &v, err, sizeof(err)),
			 -1);
}

/* ---- refusals at start ---- */

struct start {
	char root[64], sys[96], data[96], users[96];
	struct svcnet *net;
	struct svcnode *node, *cli;
	struct ncp_server_opts o;
	char err[256];
};

static int start_setup(void **state)
{
	static const uint32_t nets[] = { 0x10 };
	struct start *s = calloc(1, sizeof(*s));

	assert_non_null(s);
	snprintf(s->root, sizeof(s->root), "/tmp/ipxlab-ncpsrv.XXXXXX");
	assert_non_null(mkdtemp(s->root));
	snprintf(s->sys, sizeof(s->sys), "%s/sys", s->root);
	snprintf(s->data, sizeof(s->data), "%s/data", s->root);
	snprintf(s->users, sizeof(s->users), "%s/users", s->root);
	assert_int_equal(mkdir(s->sys, 0755), 0);
	assert_int_equal(mkdir(s->data, 0755), 0);
	s->net = svcnet_new(1, nets);
	s->node = svcnet_add(s->net, 0, (int[]){ 0 }, 1);
	s->cli = svcnet_add(s->net, 0, (int[]){ 0 }, 1);
	ncprig_default_opts(&s->o);
	*state = s;
	return 0;
}

static int start_teardown(void **state)
{
	struct start *s = *state;
	char cmd[128];

	svcnet_free(s->net);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", s->root);
	assert_int_equal(system(cmd), 0);
	free(s);
	return 0;
}

static void add_volume(struct start *s, const char *name, const char *dir,
		       bool ro)
{
	struct ncp_volume_spec *v = &s->o.volumes[s->o.nvolumes++];

	snprintf(v->name, sizeof(v->name), "%s", name);
	snprintf(v->dir, sizeof(v->dir), "%s", dir);
	v->read_only = ro;
}

/* ncp_server_new must fail with rc and exactly the message 'want'. */
static void refused(struct start *s, int rc, const char *want)
{
	struct ncp_server *srv = (struct ncp_server *)1;

	s->err[0] = '\0';
	assert_int_equal(ncp_server_new(s->node->node, &s->o, &srv, s->err,
					sizeof(s->err)), rc);
	assert_null(srv);
	assert_string_equal(s->err, want);
}

static void write_users(struct start *s, const char *text)
{
	FILE *f = fopen(s->users, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	s->o.users_file = s->users;
}

static void start_refusals(void **state)
{
	struct start *s = *state;
	char want[512];

	add_volume(s, "DATA", s->data, false);
	refused(s, IPX_EINVAL, "a volume named SYS is required "
			       "(--volume SYS=DIR)");
	add_volume(s, "DATA", s->data, false);
	refused(s, IPX_EINVAL, "volume DATA given twice");
	s->o.nvolumes = 1;
	add_volume(s, "SYS", "/nonexistent/ipxlab", false);
	refused(s, IPX_EIO, "volume SYS: cannot open /nonexistent/ipxlab: "
			    "No such file or directory");
	s->o.nvolumes = 1;
	add_volume(s, "SYS", s->sys, false);
	s->o.name = "";
	refused(s, IPX_EINVAL, "server name must be 1 to 47 printable "
			       "characters");
	s->o.name = NULL;
	refused(s, IPX_EINVAL, "server name must be 1 to 47 printable "
			       "characters");
	s->o.name = "FS1";
	s->o.users_file = "/nonexistent/users";
	refused(s, IPX_EIO, "--users /nonexistent/users: No such file or "
			    "directory");
	write_users(s, "# users\n\nalice secret\nbob\n");
	snprintf(want, sizeof(want), "%s:4: expected 'NAME ID HASH' (ID 8 hex "
		 "digits, HASH 32) or 'NAME PASSWORD' (name: 1-47 letters, "
		 "digits, '_' '-'; password at most 127, '-' = empty)",
		 s->users);
	refused(s, IPX_ECONFIG, want);
	write_users(s, "al.ice secret\n");
	snprintf(want, sizeof(want), "%s:1: expected 'NAME ID HASH' (ID 8 hex "
		 "digits, HASH 32) or 'NAME PASSWORD' (name: 1-47 letters, "
		 "digits, '_' '-'; password at most 127, '-' = empty)",
		 s->users);
	refused(s, IPX_ECONFIG, want);
	write_users(s, "alice secret extra\n");
	refused(s, IPX_ECONFIG, want);
	{
		char line[700];

		memset(line, 'a', sizeof(line) - 1);
		line[sizeof(line) - 1] = '\0';
		write_users(s, line);
		snprintf(want, sizeof(want), "%s:1: line too long", s->users);
		refused(s, IPX_ECONFIG, want);
	}
	/* A name twice, in any case (SUPERVISOR and GUEST too). */
	write_users(s, "alice one\n# c\nbob two\nALICE three\n");
	snprintf(want, sizeof(want), "%s:4: user ALICE given twice (first at "
		 "line 1; names ignore case)", s->users);
	refused(s, IPX_ECONFIG, want);
	write_users(s, "Supervisor a\nsupervisor b\n");
	snprintf(want, sizeof(want), "%s:2: user SUPERVISOR given twice "
		 "(first at line 1; names ignore case)", s->users);
	refused(s, IPX_ECONFIG, want);
}

/* The volumes are checked at start, not by every client's BAD_PATH or
 * DIR_IO later: SYS read-only without LOGIN, LOGIN not a directory, a
 * read-write volume the server cannot write (/proc: root passes every
 * permission test, a file system refusing files does not). */
static void start_volume_checks(void **state)
{
	struct start *s = *state;
	char want[512], p[200];
	FILE *f;

	add_volume(s, "SYS", s->sys, true);
	snprintf(want, sizeof(want), "volume SYS: %s has no LOGIN directory "
		 "and is read-only: create %s/LOGIN", s->sys, s->sys);
	refused(s, IPX_EIO, want);
	snprintf(p, sizeof(p), "%s/login", s->sys);
	f = fopen(p, "w");
	assert_non_null(f);
	fclose(f);
	s->o.volumes[0].read_only = false;
	snprintf(want, sizeof(want), "volume SYS: %s/login is not a directory "
		 "(SYS:LOGIN must be one)", s->sys);
	refused(s, IPX_EIO, want);
	assert_int_equal(unlink(p), 0);
	add_volume(s, "DATA", "/proc", false);
	refused(s, IPX_EIO, "volume DATA: /proc is not writable: No such file "
			    "or directory (serve it read-only as DATA=/proc,ro)");
	/* Served read-only, /proc passes; SYS gets its LOGIN made. */
	s->o.volumes[1].read_only = true;
	{
		struct ncp_server *srv;
		struct stat st;

		assert_int_equal(ncp_server_new(s->node->node, &s->o, &srv,
						s->err, sizeof(s->err)),
				 IPX_OK);
		snprintf(p, sizeof(p), "%s/LOGIN", s->sys);
		assert_int_equal(stat(p, &st), 0);
		assert_true(S_ISDIR(st.st_mode));
		ncp_server_free(srv);
	}
}

/* SYS is volume 0 whatever the order given: SYS:LOGIN is made in SYS's
 * directory, and the users file's users log in (names and passwords
 * without case, '-' the empty password); SUPERVISOR needs one. */
static void start_order_and_users(void **state)
{
	struct start *s = *state;
	struct ncp_server *srv;
	struct ncp_client *cl;
	struct ipx_addr a;
	struct stat st;
	char p[160];

	add_volume(s, "DATA", s->data, true);
	add_volume(s, "SYS", s->sys, false);
	write_users(s, "# NAME PASSWORD\n   \nAlice Secret\nbob -\n");
	if (ncp_server_new(s->node->node, &s->o, &srv, s->err,
			   sizeof(s->err)) != IPX_OK)
		fail_msg("%s", s->err);
	snprintf(p, sizeof(p), "%s/LOGIN", s->sys);
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	snprintf(p, sizeof(p), "%s/LOGIN", s->data);
	assert_int_equal(stat(p, &st), -1);
	assert_int_equal(ncp_client_new(s->cli->node, NULL, &cl), IPX_OK);
	svcnet_addr(s->node, 0x451, &a);
	assert_int_equal(ncp_connect(cl, &a), 0);
	assert_int_equal(ncp_login(cl, "ALICE", "secret"), 0);
	assert_int_equal(ncp_login(cl, "alice", "wrong"), NCP_CC_BAD_PASSWORD);
	assert_int_equal(ncp_login(cl, "BOB", ""), 0);
	assert_int_equal(ncp_login(cl, "BOB", "x"), NCP_CC_BAD_PASSWORD);
	assert_int_equal(ncp_login(cl, "SUPERVISOR", ""), NCP_CC_BAD_PASSWORD);
	assert_int_equal(ncp_login(cl, "CAROL", ""), NCP_CC_NO_OBJECT);
	assert_int_equal(ncp_login(cl, "GUEST", ""), 0);
	assert_int_equal(ncp_server_stats(srv)->logins, 3);
	/* CAROL: refused at 0x17 0x35 (no ID), before any login. */
	assert_int_equal(ncp_server_stats(srv)->bad_logins, 3);
	ncp_client_free(cl);
	ncp_server_free(srv);
}

/* ---- statistics (SIGUSR1) ---- */

static bool has_line(const char *text, const char *line)
{
	size_t n = strlen(line);

	for (const char *p = text; (p = strstr(p, line)); p += n)
		if ((p == text || p[-1] == '\n') && p[n] == '\n')
			return true;
	return false;
}

static void print_stats(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct ncp_client *cl = ncprig_login(r, "GUEST", "");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	(void)state;
	assert_non_null(f);
	assert_int_equal(ncp_request(cl, 0x99, NULL, 0, NULL, 0, NULL),
			 NCP_CC_UNKNOWN_REQUEST);
	assert_int_equal(ncp_login(cl, "GUEST", "wrong"), NCP_CC_BAD_PASSWORD);
	ncp_server_print_stats(r->srv, f);
	fclose(f);
	assert_true(has_line(text, "connections_in_use 1"));
	assert_true(has_line(text, "connections_peak 1"));
	assert_true(has_line(text, "created 1"));
	assert_true(has_line(text, "logins 1"));
	assert_true(has_line(text, "bad_logins 1"));
	assert_true(has_line(text, "function_99 1"));
	assert_true(has_line(text, "unknown_function_99 1"));
	/* Two keyed logins: key, object ID, keyed login each. */
	assert_true(has_line(text, "function_17 6"));
	assert_true(has_line(text, "drop_short 0"));
	assert_true(has_line(text, "drop_busy_new_request 0"));
	assert_true(has_line(text, "refused_path_above_root 0"));
	assert_true(has_line(text, "refused_malformed 0"));
	assert_false(has_line(text, "function_42 0"));	/* only those seen */
	assert_string_equal(ncp_srv_drop_name(NCP_SRV_DROP_WDOG_BAD),
			    "watchdog_bad");
	assert_string_equal(ncp_srv_drop_name(NCP_SRV_DROP_COUNT), "?");
	assert_string_equal(ncp_srv_refusal_name(NCP_SRV_REF_SYMLINK),
			    "symlink");
	assert_string_equal(ncp_srv_refusal_name(NCP_SRV_REF_COUNT), "?");
	free(text);
	ncp_client_free(cl);
	ncprig_free(r);
}

/* ---- what is dropped without an answer ---- */

static uint64_t dropped(struct ncprig *r, enum ncp_srv_drop d)
{
	return ncp_server_stats(r->srv)->drops[d];
}

static void dropped_packets(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct rawconn *b = rawconn_open(r, true);
	uint8_t pkt[16];
	unsigned before = b->count;
	uint64_t reqs = ncp_server_stats(r->srv)->requests;

	(void)state;
	/* Shorter than a request header (but not 2 bytes). */
	rawconn_send_raw(r, b, "\x22\x22\x01", 3);
	assert_int_equal(dropped(r, NCP_SRV_DROP_SHORT), 1);
	/* An IPX packet type other than 17 or 0. */
	ncp_req_encode(&(struct ncp_req_hdr){ NCP_TYPE_REQUEST, 9,
					      b->conn, 1, 0x13 }, pkt);
	assert_int_equal(ipx_socket_sendto(b->sock, &b->srv, IPX_TYPE_PEP,
					   pkt, 7), IPX_OK);
	ncprig_run(r, 100 * IPX_MSEC);
	assert_int_equal(dropped(r, NCP_SRV_DROP_BAD_PACKET_TYPE), 1);
	/* A request type that is none of 1111, 2222, 5555 (nor 7777, a
	 * burst packet: test_ncp_burst.c). */
	ncp_req_encode(&(struct ncp_req_hdr){ 0x6666, 9, b->conn, 1, 0x13 },
		       pkt);
	rawconn_send_raw(r, b, pkt, 7);
	assert_int_equal(dropped(r, NCP_SRV_DROP_BAD_TYPE), 1);
	/* A LIP ("LIP ") create: not answered, no connection made. */
	ncp_req_encode(&(struct ncp_req_hdr){ NCP_TYPE_CREATE, 0, 0xFFFF, 0,
					      0 }, pkt);
	ipx_put32(pkt + 4, 0x4C495020);
	memset(pkt + 8, 0, 2);
	rawconn_send_raw(r, b, pkt, 10);
	assert_int_equal(dropped(r, NCP_SRV_DROP_BAD_TYPE), 2);
	assert_int_equal(ncp_server_connections(r->srv), 1);
	/* Two bytes that are no watchdog answer: a connection not in use,
	 * or not 'Y'. */
	rawconn_send_raw(r, b, "\x63Y", 2);
	pkt[0] = (uint8_t)b->conn;
	pkt[1] = '?';
	rawconn_send_raw(r, b, pkt, 2);
	assert_int_equal(dropped(r, NCP_SRV_DROP_WDOG_BAD), 2);
	assert_int_equal(ncp_server_stats(r->srv)->wdog_answers, 0);
	/* A good answer is counted. */
	pkt[1] = NCP_WDOG_ALIVE;
	rawconn_send_raw(r, b, pkt, 2);
	assert_int_equal(ncp_server_stats(r->srv)->wdog_answers, 1);
	assert_int_equal(b->count, before);	/* none of them answered */
	assert_int_equal(ncp_server_stats(r->srv)->requests, reqs);
	rawconn_close(b);
	ncprig_free(r);
}

/* While a lock request waits, a request with a new sequence is dropped
 * and not executed (here: a create that must not happen); the lock's
 * answer still comes when it is granted. */
static void new_request_while_waiting(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct ncp_client *a = ncprig_login(r, "GUEST", "");
	struct rawconn *b = rawconn_open(r, true);
	struct ncp_fh fa;
	uint8_t hb[6], req[64];
	const uint8_t *rep;
	char host[600];
	struct stat st;
	size_t l;

	(void)state;
	assert_int_equal(ncp_open(a, "Q.DAT", NCP_OPEN_CREATE, &fa), 0);
	assert_int_equal(rawconn_open_file(r, b, "Q.DAT", hb)[6], 0);
	assert_int_equal(ncp_lock_record(a, &fa, NCP_LOCK_EXCL, 0, 10, 0), 0);
	req[0] = NCP_LOCK_EXCL;
	memcpy(req + 1, hb, 6);
	ipx_put32(req + 7, 0);
	ipx_put32(req + 11, 10);
	ipx_put16(req + 15, 180);	/* 10 s */
	rawconn_send(r, b, 0x1A, req, 17);
	assert_int_equal(rawconn_replies(r, b, IPX_SEC), 0);
	/* 0x4D create new NEW.TXT in SYS: with the next sequence. */
	req[0] = 1;
	req[1] = 0;
	req[2] = 7;
	memcpy(req + 3, "NEW.TXT", 7);
	rawconn_send(r, b, 0x4D, req, 10);
	assert_int_equal(rawconn_replies(r, b, IPX_SEC), 0);
	assert_int_equal(dropped(r, NCP_SRV_DROP_BUSY_OTHER), 1);
	snprintf(host, sizeof(host), "%s/NEW.TXT", r->sys);
	assert_int_equal(stat(host, &st), -1);
	/* A clears: B's lock is granted, answered with its own sequence. */
	assert_int_equal(ncp_clear_record(a, &fa, 0, 10), 0);
	ncprig_run(r, 100 * IPX_MSEC);
	rep = rawconn_last(b, &l);
	assert_int_equal(ipx_get16(rep), NCP_TYPE_REPLY);
	assert_int_equal(rep[2], (uint8_t)(b->seq - 1));
	assert_int_equal(rep[6], 0);
	assert_int_equal(stat(host, &st), -1);
	rawconn_close(b);
	ncp_client_free(a);
	ncprig_free(r);
}

/* A volume prefix names a whole volume: "S:" and "SY:" are no SYS:, and
 * "SYSX:" no more. */
static void volume_prefix_is_whole(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct ncp_client *cl = ncprig_login(r, "GUEST", "");
	struct ncp_entry e;
	const uint64_t *no_vol =
		&ncp_server_stats(r->srv)->refusals[NCP_SRV_REF_NO_VOLUME];

	(void)state;
	assert_int_equal(ncp_stat(cl, "SYS:LOGIN", &e), 0);
	assert_int_equal(ncp_stat(cl, "sys:LOGIN", &e), 0);
	assert_int_equal(ncp_stat(cl, "S:LOGIN", &e), NCP_CC_NO_VOLUME);
	assert_int_equal(ncp_stat(cl, "SY:LOGIN", &e), NCP_CC_NO_VOLUME);
	assert_int_equal(ncp_stat(cl, "SYSX:LOGIN", &e), NCP_CC_NO_VOLUME);
	assert_int_equal(ncp_stat(cl, "D:README.TXT", &e), NCP_CC_NO_VOLUME);
	assert_int_equal(ncp_stat(cl, "DATA:README.TXT", &e), 0);
	assert_int_equal(*no_vol, 4);
	ncp_client_free(cl);
	ncprig_free(r);
}

/* ---- connections: whose, and which ---- */

/* A connection number is its station's: another address using it gets
 * status 01 (bad connection), and nothing is done. */
static void a_connection_is_its_stations(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct rawconn *b = rawconn_open(r, true);
	struct rawconn *c = rawconn_open(r, false);
	uint8_t req[16] = { 1, 0, 8 };
	const uint8_t *rep;
	char host[600];
	struct stat st;

	(void)state;
	memcpy(req + 3, "EVIL.TXT", 8);
	c->conn = b->conn;
	rep = rawconn_call(r, c, 0x4D, req, 11, NULL);
	assert_int_equal(rep[7], NCP_STATUS_BAD_CONN);
	assert_int_equal(ncp_server_stats(r->srv)->bad_conn, 1);
	snprintf(host, sizeof(host), "%s/EVIL.TXT", r->sys);
	assert_int_equal(stat(host, &st), -1);
	/* The owner still can. */
	rep = rawconn_call(r, b, 0x4D, req, 11, NULL);
	assert_int_equal(rep[6], 0);
	assert_int_equal(stat(host, &st), 0);
	rawconn_close(c);
	rawconn_close(b);
	ncprig_free(r);
}

/* After 256 requests the sequence is 0 again: a create from that
 * station (it restarted) is a new connection, not a repeat of the
 * request answered with sequence 0. */
static void create_after_the_sequence_wrapped(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct rawconn *c = rawconn_open(r, false);
	uint64_t made = ncp_server_stats(r->srv)->created;
	struct ncp_req_hdr h = { NCP_TYPE_CREATE, 0, 0xFFFF, 2, 0 };
	uint8_t pkt[7];
	const uint8_t *rep;
	size_t l;

	(void)state;
	for (int i = 1; i <= 256; i++) {
		rep = rawconn_call(r, c, 0x13, NULL, 0, &l);
		assert_int_equal(rep[2], (uint8_t)i);	/* 1 .. 255, 0 */
	}
	assert_int_equal(ncp_server_stats(r->srv)->repeats, 0);
	ncp_req_encode(&h, pkt);
	rawconn_send_raw(r, c, pkt, 7);
	assert_int_equal(ncp_server_stats(r->srv)->created, made + 1);
	assert_int_equal(ncp_server_stats(r->srv)->repeats, 0);
	rep = rawconn_last(c, &l);
	assert_int_equal(ipx_get16(rep), NCP_TYPE_REPLY);
	assert_int_equal(rep[6], 0);
	assert_int_equal(ncp_server_connections(r->srv), 1);
	rawconn_close(c);
	ncprig_free(r);
}

/* ncpfs 2.2.6 creates its connection with sequence 1 and then starts
 * counting again from 0, so its first request has sequence 1 too: a
 * request, not a repeat of the create (mars_nwe forgets the create's
 * sequence the same way). */
static void first_request_with_the_create_sequence(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct rawconn *c = rawconn_open(r, false);
	struct ncp_req_hdr h = { NCP_TYPE_CREATE, 1, 0xFFFF, 2, 0 };
	struct ncp_rep_hdr rh;
	uint8_t pkt[7];
	const uint8_t *rep;
	size_t l;

	(void)state;
	ncp_req_encode(&h, pkt);
	rawconn_send_raw(r, c, pkt, 7);
	rep = rawconn_last(c, &l);
	assert_int_equal(ncp_rep_decode(rep, l, &rh), 0);
	assert_int_equal(rh.cc, 0);
	c->conn = rh.conn;
	c->seq = 0;
	rep = rawconn_call(r, c, 0x13, NULL, 0, &l);
	assert_int_equal(rep[2], 1);
	assert_int_equal(l, NCP_REP_HDR_LEN + 3);	/* the station number */
	assert_int_equal(rep[8], (uint8_t)rh.conn);
	assert_int_equal(ncp_server_stats(r->srv)->repeats, 0);
	/* The same request again is a repeat, answered from the cache. */
	rep = rawconn_resend(r, c, &l);
	assert_int_equal(l, NCP_REP_HDR_LEN + 3);
	assert_int_equal(ncp_server_stats(r->srv)->repeats, 1);
	rawconn_close(c);
	ncprig_free(r);
}

/* A client that answers the watchdog is polled for good and never
 * cleared; a silent one goes after its polls (5 s, then 2 at 1 s). */
static void answering_the_watchdog_keeps_a_connection(void **state)
{
	struct ncp_server_opts o;
	struct ncprig *r;
	struct ncp_client *a;
	struct rawconn *b;
	const struct ncp_server_stats *s;

	(void)state;
	ncprig_default_opts(&o);
	o.wdog_delay = 5 * IPX_SEC;
	o.wdog_interval = IPX_SEC;
	o.wdog_count = 2;
	r = ncprig_new(&o);
	s = ncp_server_stats(r->srv);
	a = ncprig_login(r, "GUEST", "");
	b = rawconn_open(r, true);
	ncprig_run(r, 9 * IPX_SEC);
	assert_int_equal(s->wdog_cleared, 1);	/* B, at 7 s */
	ncprig_run(r, 60 * IPX_SEC);
	assert_int_equal(s->wdog_cleared, 1);
	assert_int_equal(ncp_server_connections(r->srv), 1);
	assert_true(s->wdog_answers >= 10);
	assert_int_equal(ncp_request(a, 0x13, NULL, 0, NULL, 0, NULL), 0);
	rawconn_close(b);
	ncp_client_free(a);
	ncprig_free(r);
}

/* Watchdog answers carry the connection's low byte only: with more than
 * 255 connections they are matched by the answer's address and the low
 * byte. 256 silent connections from the client's node and then a client
 * that answers (connection 257, low byte 1, like the silent connection
 * 1): the silent ones are cleared, the answering one kept. */
static void watchdog_above_255(void **state)
{
	struct ncp_server_opts o;
	struct ncprig *r;
	struct rawconn *b;
	struct ncp_client *a;
	struct ipx_addr sa;
	const struct ncp_server_stats *s;

	(void)state;
	ncprig_default_opts(&o);
	o.max_connections = 300;
	o.wdog_delay = 5 * IPX_SEC;
	o.wdog_interval = IPX_SEC;
	o.wdog_count = 2;
	r = ncprig_new(&o);
	s = ncp_server_stats(r->srv);
	/* The client's sockets first, so no silent one takes its address;
	 * each silent connection stays after its socket closes (a node has
	 * 20 sockets). */
	assert_int_equal(ncp_client_new(r->cli->node, NULL, &a), IPX_OK);
	for (int i = 0; i < 256; i++) {
		b = rawconn_open(r, false);
		assert_int_equal(b->conn, i + 1);
		rawconn_close(b);
	}
	ncprig_server_addr(r, &sa);
	assert_int_equal(ncp_connect(a, &sa), 0);
	assert_int_equal(ncp_login(a, "GUEST", ""), 0);
	assert_int_equal(ncp_connection(a), 257);
	ncprig_run(r, 20 * IPX_SEC);
	assert_int_equal(s->wdog_cleared, 256);
	assert_int_equal(ncp_server_connections(r->srv), 1);
	assert_true(s->wdog_answers >= 2);	/* every 5 s */
	assert_int_equal(ncp_request(a, 0x13, NULL, 0, NULL, 0, NULL), 0);
	ncp_client_free(a);
	ncprig_free(r);
}

/* The polls go out from socket 0x4001 (NetWare's; Wireshark's "IPX
 * Message"), to the connection's socket + 1, and an answer to that
 * socket keeps the connection. */
struct wdog_seen {
	struct ipx_addr from;
	uint8_t data[4];
	size_t len;
	unsigned count;
};

static void on_poll(struct ipx_socket *s, const struct ipx_header *h,
		    const uint8_t *data, size_t len, void *ctx)
{
	struct wdog_seen *w = ctx;

	(void)s;
	w->from = h->src;
	w->len = len < sizeof(w->data) ? len : sizeof(w->data);
	memcpy(w->data, data, w->len);
	w->count++;
}

static void watchdog_socket(void **state)
{
	struct ncp_server_opts o;
	struct ncprig *r;
	struct rawconn *b;
	struct ipx_socket *ws;
	struct wdog_seen w = { 0 };
	const struct ncp_server_stats *s;
	uint8_t ans[2];

	(void)state;
	ncprig_default_opts(&o);
	o.wdog_delay = 5 * IPX_SEC;
	o.wdog_interval = IPX_SEC;
	o.wdog_count = 3;
	r = ncprig_new(&o);
	s = ncp_server_stats(r->srv);
	b = rawconn_open(r, false);
	assert_int_equal(ipx_socket_open(r->cli->node,
					 (uint16_t)(ipx_socket_number(b->sock) + 1),
					 on_poll, &w, &ws), IPX_OK);
	ncprig_run(r, 5500 * IPX_MSEC);
	assert_int_equal(w.count, 1);
	assert_int_equal(w.from.socket, 0x4001);
	assert_int_equal(w.len, 2);
	assert_int_equal(w.data[0], (uint8_t)b->conn);
	assert_int_equal(w.data[1], '?');
	ans[0] = w.data[0];
	ans[1] = 'Y';
	assert_int_equal(ipx_socket_sendto(ws, &w.from, IPX_TYPE_NCP, ans, 2),
			 IPX_OK);
	ncprig_run(r, 100 * IPX_MSEC);
	assert_int_equal(s->wdog_answers, 1);
	/* Answered: polled again only after the delay, and kept. */
	ncprig_run(r, 4 * IPX_SEC);
	assert_int_equal(w.count, 1);
	assert_int_equal(ncp_server_connections(r->srv), 1);
	ipx_socket_close(ws);
	rawconn_close(b);
	ncprig_free(r);
}

/* A client on the server's segment whose link says network AA (a stack
 * link with net=AA, no router to announce it): its requests arrive with
 * source network AA and no hops. The replies, and a watchdog poll later,
 * go straight back out of that link to its node at once; before, each
 * waited for a RIP answer no one gave. */
static void on_pkt(struct ipx_socket *s, const struct ipx_header *h,
		   const uint8_t *data, size_t len, void *ctx)
{
	struct wdog_seen *w = ctx;

	on_poll(s, h, data, len, ctx);
	if (len >= 8)
		memcpy(w->data, data + 3, 1);	/* connection, low byte */
}

static void reply_to_an_unrouted_network(void **state)
{
	struct ncp_server_opts o;
	struct ncprig *r;
	struct ipx_link *link;
	struct ipx_socket *s, *ws;
	struct wdog_seen got = { 0 }, poll = { 0 };
	struct ipx_addr sa;
	uint8_t req[8];
	struct ncp_req_hdr rq = { NCP_TYPE_CREATE, 0, 0xFFFF, 1, 0 };

	(void)state;
	ncprig_default_opts(&o);
	o.wdog_delay = 2 * IPX_SEC;
	o.wdog_interval = IPX_SEC;
	o.wdog_count = 3;
	r = ncprig_new(&o);
	link = r->cli->links[0];
	link->net = 0xAA;
	assert_int_equal(ipx_socket_open(r->cli->node, 0x5000, on_pkt, &got,
					 &s), IPX_OK);
	assert_int_equal(ipx_socket_open(r->cli->node, 0x5001, on_poll, &poll,
					 &ws), IPX_OK);
	ncprig_server_addr(r, &sa);
	ncp_req_encode(&rq, req);
	assert_int_equal(ipx_socket_sendto_link(s, link, &sa, IPX_TYPE_NCP,
						req, 7), IPX_OK);
	ncprig_run(r, 20 * IPX_MSEC);
	assert_int_equal(got.count, 1);
	assert_int_equal(got.len, 4);	/* on_poll keeps 4 bytes */
	/* A request on the new connection: answered at once too. */
	rq.type = NCP_TYPE_REQUEST;
	rq.seq = 1;
	rq.conn = got.data[0];
	rq.function = 0x13;
	ncp_req_encode(&rq, req);
	assert_int_equal(ipx_socket_sendto_link(s, link, &sa, IPX_TYPE_NCP,
						req, 7), IPX_OK);
	ncprig_run(r, 20 * IPX_MSEC);
	assert_int_equal(got.count, 2);
	assert_int_equal(ipx_node_pending(r->srvnode->node), 0);
	/* The watchdog's poll, 2 s on (at the next 1 s sweep), the same way
	 * to socket + 1. */
	ncprig_run(r, 3100 * IPX_MSEC);
	assert_int_equal(poll.count, 1);
	assert_int_equal(poll.data[1], '?');
	assert_int_equal(ncp_server_stats(r->srv)->drops[NCP_SRV_DROP_TX], 0);
	ipx_socket_close(s);
	ipx_socket_close(ws);
	ncprig_free(r);
}

/* A second server of a name another file server answers for on the
 * network (any case) is refused before it advertises; another name
 * starts. */
static void name_taken_refused(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct svcnode *n2 = svcnet_add(r->net, 0, (int[]){ 0 }, 1);
	struct ncp_server_opts o;
	struct ncp_server *srv = NULL;
	char err[256], want[256], as[IPX_ADDR_STRLEN];
	struct ipx_addr a;
	ipx_time t0;

	(void)state;
	ncprig_default_opts(&o);
	snprintf(o.volumes[0].name, sizeof(o.volumes[0].name), "SYS");
	snprintf(o.volumes[0].dir, sizeof(o.volumes[0].dir), "%s", r->sys);
	o.volumes[0].read_only = true;
	o.nvolumes = 1;
	o.name = "testsrv";
	o.name_check = IPX_SEC;
	t0 = ipx_loop_now(r->net->loop);
	assert_int_equal(ncp_server_new(n2->node, &o, &srv, err, sizeof(err)),
			 IPX_EINUSE);
	assert_null(srv);
	ncprig_server_addr(r, &a);
	a.socket = 0x451;
	snprintf(want, sizeof(want), "a file server named 'testsrv' already "
		 "answers SAP at %s: choose another --name",
		 ipx_addr_format(&a, as));
	assert_string_equal(err, want);
	/* It did not wait out the second: the answer ended the wait. */
	assert_true(ipx_loop_now(r->net->loop) - t0 < IPX_SEC);
	o.name = "OTHER";
	assert_int_equal(ncp_server_new(n2->node, &o, &srv, err, sizeof(err)),
			 IPX_OK);
	ncp_server_free(srv);
	ncprig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(volume_specs),
		cmocka_unit_test_setup_teardown(start_refusals, start_setup,
						start_teardown),
		cmocka_unit_test_setup_teardown(start_volume_checks,
						start_setup, start_teardown),
		cmocka_unit_test_setup_teardown(start_order_and_users,
						start_setup, start_teardown),
		cmocka_unit_test(print_stats),
		cmocka_unit_test(dropped_packets),
		cmocka_unit_test(new_request_while_waiting),
		cmocka_unit_test(volume_prefix_is_whole),
		cmocka_unit_test(a_connection_is_its_stations),
		cmocka_unit_test(create_after_the_sequence_wrapped),
		cmocka_unit_test(first_request_with_the_create_sequence),
		cmocka_unit_test(answering_the_watchdog_keeps_a_connection),
		cmocka_unit_test(watchdog_above_255),
		cmocka_unit_test(watchdog_socket),
		cmocka_unit_test(name_taken_refused),
		cmocka_unit_test(reply_to_an_unrouted_network),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
