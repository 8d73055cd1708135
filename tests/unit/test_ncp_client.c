/*
 * test_ncp_client.c - the client library against a server written in the
 * test that answers as a NetWare 3 server (mars_nwe) does: File Search
 * Continue (0x3F) with the subdirectory bit 0x10 returns directories only
 * and without it files only, and a directory entry in mars_nwe's
 * NW_DIR_INFO layout. `ipxlab ncp ls` and `stat` must find both kinds,
 * and list each name once from ipxlab's own server too.
 */
#include "cm.h"

#include <stdio.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/ncp_client.h"
#include "ncprig.h"
#include "svcnet.h"

struct fake_entry {
	const char *name;
	bool dir;
	uint32_t size;
};

static const struct fake_entry entries[] = {
	{ "NLS", true, 0 },
	{ "LOGIN.TXT", false, 1234 },
	{ "PUBLIC", true, 0 },
};

struct fake {
	struct ipx_socket *sock;
	unsigned searches;	/* 0x3F requests seen */
};

/* One 28-byte entry: NW_FILE_INFO for a file, NW_DIR_INFO (attributes
 * two bytes, creation date and time, owner, rights, reserved, next
 * search) for a directory. */
static void put_entry(uint8_t *p, const struct fake_entry *e)
{
	memset(p, 0, 28);
	memcpy(p, e->name, strlen(e->name));
	if (e->dir) {
		p[14] = NCP_ATTR_DIRECTORY;
		p[15] = 0;
		ipx_put16(p + 16, (45 << 9) | (3 << 5) | 7);	/* 2025-03-07 */
		ipx_put16(p + 18, 12 << 11);
		ipx_put32(p + 20, 1);
		p[24] = 0xFF;
		ipx_put16(p + 26, 0xFFFF);
	} else {
		ipx_put32(p + 16, e->size);
		ipx_put16(p + 20, (45 << 9) | (3 << 5) | 7);
		ipx_put16(p + 24, (45 << 9) | (3 << 5) | 7);
		ipx_put16(p + 26, 12 << 11);
	}
}

/* 0x3F: +0 volume, +1 dir id, +3 sequence, +5 attributes, +6 pattern. */
static size_t search(const uint8_t *q, size_t len, uint8_t *out, uint8_t *cc)
{
	uint16_t seq = ipx_get16(q + 3);
	bool dirs = q[5] & NCP_SATTR_DIR;
	char pat[16] = "";

	if (len < 7 || q[6] > 12 || len < 7u + q[6]) {
		*cc = 0xFF;
		return 0;
	}
	memcpy(pat, q + 7, q[6]);
	for (size_t k = seq == 0xFFFF ? 0 : seq + 1u;
	     k < sizeof(entries) / sizeof(entries[0]); k++) {
		if (entries[k].dir != dirs)
			continue;
		if (strcmp(pat, "*.*") && strcmp(pat, entries[k].name))
			continue;
		ipx_put16(out, (uint16_t)k);
		memcpy(out + 2, q + 1, 2);
		put_entry(out + 4, &entries[k]);
		return 32;
	}
	*cc = 0xFF;
	return 0;
}

static void fake_rx(struct ipx_socket *sock, const struct ipx_header *hdr,
		    const uint8_t *d, size_t len, void *ctx)
{
	struct fake *f = ctx;
	uint8_t rep[64] = { 0x33, 0x33 };
	size_t n = 0;

	if (len < 7)
		return;
	rep[2] = d[2];
	rep[3] = 1;		/* connection 1 */
	rep[4] = d[4];
	rep[6] = 0;
	if (ipx_get16(d) == 0x2222) {
		switch (d[6]) {
		case 0x16:	/* allocate a directory handle */
			rep[8] = 1;
			rep[9] = 0xFF;
			n = 2;
			break;
		case 0x3E:	/* volume 0, directory 1, sequence 0xFFFF */
			rep[9] = 1;
			ipx_put16(rep + 11, 0xFFFF);
			rep[13] = 0x45;
			n = 6;
			break;
		case 0x3F:
			f->searches++;
			n = search(d + 7, len - 7, rep + 8, &rep[6]);
			break;
		default:
			rep[6] = 0xFB;
		}
	}
	ipx_socket_reply(sock, hdr, 17, rep, 8 + n);
}

static int collect(const struct ncp_entry *e, void *ctx)
{
	char *s = ctx;
	char one[40];

	snprintf(one, sizeof(one), "%s%s:%u ", e->name,
		 e->attr & NCP_ATTR_DIRECTORY ? "/" : "", (unsigned)e->size);
	strcat(s, one);
	return 0;
}

static uint64_t requests_for_stat(struct ncp_client *cl, const char *path,
				  int want)
{
	uint64_t before = ncp_client_stats(cl)->requests;
	struct ncp_entry e;

	assert_int_equal(ncp_stat(cl, path, &e), want);
	return ncp_client_stats(cl)->requests - before;
}

static void test_netware_search_semantics(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct fake f = { 0 };
	struct ncp_client *cl;
	struct ncp_entry e;
	struct ipx_addr a;
	char list[256] = "";

	(void)state;
	ncp_server_free(r->srv);
	r->srv = NULL;
	assert_int_equal(ipx_socket_open(r->srvnode->node, 0x451, fake_rx, &f,
					 &f.sock), IPX_OK);
	assert_int_equal(ncp_client_new(r->cli->node, NULL, &cl), IPX_OK);
	ncprig_server_addr(r, &a);
	assert_int_equal(ncp_connect(cl, &a), 0);
	assert_int_equal(ncp_list(cl, "SYS:LOGIN", NULL, collect, list), 0);
	assert_string_equal(list, "NLS/:0 PUBLIC/:0 LOGIN.TXT:1234 ");
	assert_int_equal(ncp_stat(cl, "SYS:LOGIN/LOGIN.TXT", &e), 0);
	assert_string_equal(e.name, "LOGIN.TXT");
	assert_int_equal(e.size, 1234);
	assert_int_equal(ncp_stat(cl, "SYS:LOGIN/PUBLIC", &e), 0);
	assert_true(e.attr & NCP_ATTR_DIRECTORY);
	assert_int_equal(e.date, (45 << 9) | (3 << 5) | 7);
	assert_int_equal(e.time, 12 << 11);
	assert_int_equal(ncp_stat(cl, "SYS:LOGIN/NONE", &e), NCP_CC_FAILURE);
	assert_true(f.searches > 0);
	/* learnt "directories only": a miss still searches the files */
	assert_int_equal(requests_for_stat(cl, "SYS:LOGIN/NONE",
					   NCP_CC_FAILURE), 4);
	assert_int_equal(requests_for_stat(cl, "SYS:LOGIN/LOGIN.TXT", 0), 4);
	ncp_client_free(cl);
	ipx_socket_close(f.sock);
	ncprig_free(r);
}

/* ipxlab's own server returns files with 0x10 too: one pass then; a
 * directory of directories only gets the second pass, and no name twice. */
static void test_own_server_lists_once(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct ncp_client *cl = ncprig_login(r, "GUEST", "");
	struct ncp_fh fh;
	char list[256] = "";

	(void)state;
	assert_int_equal(ncp_mkdir(cl, "SYS:ONLY"), 0);
	assert_int_equal(ncp_mkdir(cl, "SYS:ONLY\\B"), 0);
	assert_int_equal(ncp_mkdir(cl, "SYS:ONLY\\A"), 0);
	assert_int_equal(ncp_list(cl, "SYS:ONLY", NULL, collect, list), 0);
	assert_string_equal(list, "A/:0 B/:0 ");
	assert_int_equal(ncp_open(cl, "SYS:ONLY\\F.TXT", NCP_OPEN_CREATE, &fh),
			 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	list[0] = '\0';
	assert_int_equal(ncp_list(cl, "SYS:ONLY", NULL, collect, list), 0);
	assert_string_equal(list, "A/:0 B/:0 F.TXT:0 ");
	ncp_client_free(cl);
	ncprig_free(r);
}

/* A name that is not there: 0x3E + 0x3F once the client knows the server
 * returns files with 0x10 (ipxlab's), twice that against a server that
 * reads 0x10 as directories only (the second pass finds its files). */
static void test_second_pass_only_where_needed(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct ncp_client *cl = ncprig_login(r, "GUEST", "");
	struct ncp_fh fh;

	(void)state;
	assert_int_equal(ncp_open(cl, "SYS:F.TXT", NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(requests_for_stat(cl, "SYS:F.TXT", 0), 2);
	assert_int_equal(requests_for_stat(cl, "SYS:NOPE.TXT", NCP_CC_FAILURE),
			 2);
	assert_int_equal(requests_for_stat(cl, "SYS:NOPE", NCP_CC_FAILURE), 2);
	ncp_client_free(cl);
	ncprig_free(r);
}

/*
 * A server that grants 1,444 bytes to 0x61 whatever the link (mars_nwe's
 * answer) on a segment whose IPX packets are at most 1,424 bytes (DOSBox's
 * tunnel). It keeps the sequence number of every packet and the largest
 * write it got.
 */
struct fake_mars {
	struct ipx_socket *sock;
	uint8_t seqs[64];
	unsigned nseq;
	size_t max_write;
	bool destroyed;
	uint8_t destroy_seq;
};

static void mars_rx(struct ipx_socket *sock, const struct ipx_header *hdr,
		    const uint8_t *d, size_t len, void *ctx)
{
	struct fake_mars *f = ctx;
	uint8_t rep[64] = { 0x33, 0x33 };
	size_t n = 0;
	uint16_t type;

	if (len < 7)
		return;
	type = ipx_get16(d);
	if (f->nseq < sizeof(f->seqs))
		f->seqs[f->nseq++] = d[2];
	rep[2] = d[2];
	rep[3] = 1;
	rep[4] = d[4];
	if (type == 0x5555) {
		f->destroyed = true;
		f->destroy_seq = d[2];
	} else if (type == 0x2222) {
		switch (d[6]) {
		case 0x16:
			rep[8] = 1;
			n = 2;
			break;
		case 0x61:	/* 1,444, socket 0x451, no security */
			ipx_put16(rep + 8, 1444);
			ipx_put16(rep + 10, 0x451);
			n = 5;
			break;
		case 0x4C:
			n = 36;
			break;
		case 0x49:
			if (len >= 20 && len - 20 > f->max_write)
				f->max_write = len - 20;
			break;
		default:
			rep[6] = 0xFB;
		}
	}
	ipx_socket_reply(sock, hdr, 17, rep, 8 + n);
}

static void test_buffer_clamped_to_the_link(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct fake_mars f = { 0 };
	static uint8_t data[4000];
	struct ncp_client *cl;
	struct ncp_fh fh;
	struct ipx_addr a;

	(void)state;
	ncp_server_free(r->srv);
	r->srv = NULL;
	ipx_mem_segment_set_mtu(r->net->seg[0], 1424);
	assert_int_equal(ipx_socket_open(r->srvnode->node, 0x451, mars_rx, &f,
					 &f.sock), IPX_OK);
	assert_int_equal(ncp_client_new(r->cli->node, NULL, &cl), IPX_OK);
	ncprig_server_addr(r, &a);
	assert_int_equal(ncp_connect(cl, &a), 0);
	assert_int_equal(ncp_negotiate(cl, 4096), 0);
	/* 1,424 less 30 of IPX header, less 24 of read/write overhead */
	assert_int_equal(ncp_bufsize(cl), 1370);
	assert_int_equal(ncp_open(cl, "SYS:F", NCP_OPEN_WRITE, &fh), 0);
	assert_int_equal(ncp_write(cl, &fh, 0, data, sizeof(data)), 0);
	assert_int_equal(f.max_write, 1370);
	ncp_client_free(cl);
	ipx_socket_close(f.sock);
	ncprig_free(r);
}

/* A request too big for the link is refused before it is sent; it takes
 * no sequence number, so the Destroy Connection after it carries the one
 * the server expects (mars_nwe kept the file open otherwise). */
static void test_unsent_request_keeps_the_sequence(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct fake_mars f = { 0 };
	static uint8_t big[1450];
	struct ncp_client *cl;
	struct ipx_addr a;
	uint8_t last;

	(void)state;
	ncp_server_free(r->srv);
	r->srv = NULL;
	ipx_mem_segment_set_mtu(r->net->seg[0], 1424);
	assert_int_equal(ipx_socket_open(r->srvnode->node, 0x451, mars_rx, &f,
					 &f.sock), IPX_OK);
	assert_int_equal(ncp_client_new(r->cli->node, NULL, &cl), IPX_OK);
	ncprig_server_addr(r, &a);
	assert_int_equal(ncp_connect(cl, &a), 0);
	assert_int_equal(ncp_request(cl, 0x49, big, sizeof(big), NULL, 0,
				     NULL), IPX_ETOOBIG);
	last = f.seqs[f.nseq - 1];
	assert_int_equal(ncp_disconnect(cl), 0);
	assert_true(f.destroyed);
	assert_int_equal(f.destroy_seq, (uint8_t)(last + 1));
	ncp_client_free(cl);
	ipx_socket_close(f.sock);
	ncprig_free(r);
}

/*
 * Finding the server when queries are lost or not answered: a responder
 * on socket 0x452 that ignores the first 'ignore' queries, and nearest
 * queries altogether when 'general_only' (as some routers and servers).
 */
struct fake_sap {
	struct ipx_socket *sock;
	unsigned ignore, nearest, general;
	bool general_only;
};

static void sap_rx(struct ipx_socket *sock, const struct ipx_header *hdr,
		   const uint8_t *d, size_t len, void *ctx)
{
	struct fake_sap *f = ctx;
	struct ipx_sap_msg m = { 0 };
	uint8_t out[IPX_SAP_MAX_LEN];
	uint16_t op;
	size_t n;

	if (len != IPX_SAP_QUERY_LEN)
		return;
	op = ipx_get16(d);
	if (op == IPX_SAP_NEAREST_QUERY)
		f->nearest++;
	else
		f->general++;
	if (f->ignore) {
		f->ignore--;
		return;
	}
	if (op == IPX_SAP_NEAREST_QUERY && f->general_only)
		return;
	m.op = op == IPX_SAP_NEAREST_QUERY ? IPX_SAP_NEAREST_RESPONSE
					   : IPX_SAP_GENERAL_RESPONSE;
	m.count = 1;
	m.entries[0].type = IPX_SAP_FILE_SERVER;
	snprintf(m.entries[0].name, sizeof(m.entries[0].name), "FAKEFS");
	m.entries[0].addr = hdr->dst;
	m.entries[0].addr.socket = 0x451;
	m.entries[0].hops = 1;
	n = ipx_sap_encode(&m, out, sizeof(out));
	assert_true(n > 0);
	ipx_socket_reply(sock, hdr, 4, out, n);
}

static int find_with(struct fake_sap *f, const char *name, ipx_time timeout)
{
	static const uint32_t nets[] = { 0x10 };
	struct svcnet *net = svcnet_new(1, nets);
	static const int seg0[] = { 0 };
	struct svcnode *cli = svcnet_add(net, SVC_SAP, seg0, 1);
	struct svcnode *srv = svcnet_add(net, 0, seg0, 1);
	struct ncp_client *cl;
	struct ipx_addr a;
	char found[48] = "";
	int rc;

	assert_int_equal(ipx_socket_open(srv->node, 0x452, sap_rx, f,
					 &f->sock), IPX_OK);
	assert_int_equal(ncp_client_new(cli->node, NULL, &cl), IPX_OK);
	rc = ncp_find_server(cl, cli->sap, name, timeout, &a, found);
	if (rc == 0) {
		assert_string_equal(found, "FAKEFS");
		assert_int_equal(a.socket, 0x451);
	}
	ncp_client_free(cl);
	ipx_socket_close(f->sock);
	svcnet_free(net);
	return rc;
}

static void test_find_resends_and_falls_back(void **state)
{
	struct fake_sap lost = { .ignore = 1 };
	struct fake_sap lost_by_name = { .ignore = 2 };
	struct fake_sap general = { .general_only = true };
	struct fake_sap silent = { .ignore = 1000 };

	(void)state;
	/* the first query lost: the second finds it within the time */
	assert_int_equal(find_with(&lost, NULL, 3 * IPX_SEC), 0);
	assert_true(lost.nearest + lost.general >= 2);
	assert_int_equal(find_with(&lost_by_name, "FAKEFS", 3 * IPX_SEC), 0);
	/* no nearest answers at all: the general query finds one */
	assert_int_equal(find_with(&general, NULL, 3 * IPX_SEC), 0);
	assert_true(general.general >= 1);
	/* nobody answers: queries all through the time, then none */
	assert_int_equal(find_with(&silent, NULL, 3 * IPX_SEC),
			 NCP_E_NOSERVER);
	assert_true(silent.nearest + silent.general >= 5);
}

/*
 * A server that stops answering: the client says so at 2 s, while it
 * goes on retransmitting, and again when the answers come back; one that
 * never answers again fails after the retry time as before.
 */
struct stall_log {
	struct ipx_loop *loop;
	ipx_time at[4];
	bool answering[4];
	unsigned n;
};

static void on_stall(void *ctx, bool answering)
{
	struct stall_log *l = ctx;

	if (l->n < 4) {
		l->at[l->n] = ipx_loop_now(l->loop);
		l->answering[l->n++] = answering;
	}
}

struct mute {
	struct ipx_socket *sock;
	struct ipx_loop *loop;
	ipx_time until;		/* silent before this time */
};

static void mute_rx(struct ipx_socket *sock, const struct ipx_header *hdr,
		    const uint8_t *d, size_t len, void *ctx)
{
	struct mute *m = ctx;
	uint8_t rep[16] = { 0x33, 0x33 };

	if (len < 7 || ipx_time_before(ipx_loop_now(m->loop), m->until))
		return;
	rep[2] = d[2];
	rep[3] = 1;
	rep[4] = d[4];
	rep[8] = 1;	/* a directory handle, for 0x16 */
	ipx_socket_reply(sock, hdr, 17, rep, 10);
}

static void test_not_responding_is_said(void **state)
{
	struct ncprig *r = ncprig_new(NULL);
	struct stall_log log = { .loop = r->net->loop };
	struct mute m = { .loop = r->net->loop };
	struct ncp_client_opts o = { .retries = 8, .on_stall = on_stall,
				     .stall_ctx = &log };
	struct ncp_client *cl;
	struct ipx_addr a;
	ipx_time t;

	(void)state;
	ncp_server_free(r->srv);
	r->srv = NULL;
	assert_int_equal(ipx_socket_open(r->srvnode->node, 0x451, mute_rx, &m,
					 &m.sock), IPX_OK);
	assert_int_equal(ncp_client_new(r->cli->node, &o, &cl), IPX_OK);
	ncprig_server_addr(r, &a);
	assert_int_equal(ncp_connect(cl, &a), 0);
	assert_int_equal(log.n, 0);
	/* silent for 5 s: said at 2 s, answering again at the first
	 * retransmission after 5 s (0.1 + 0.2 + ... + 3.2 = 6.3 s) */
	t = ipx_loop_now(r->net->loop);
	m.until = t + 5 * IPX_SEC;
	assert_int_equal(ncp_request(cl, 0x13, NULL, 0, NULL, 0, NULL), 0);
	assert_int_equal(log.n, 2);
	assert_false(log.answering[0]);
	assert_int_equal(log.at[0] - t, 2 * IPX_SEC);
	assert_true(log.answering[1]);
	assert_true(log.at[1] - t >= 5 * IPX_SEC);
	/* silent for good: said, then the time-out after the retries */
	log.n = 0;
	t = ipx_loop_now(r->net->loop);
	m.until = t + 1000 * IPX_SEC;
	assert_int_equal(ncp_request(cl, 0x13, NULL, 0, NULL, 0, NULL),
			 NCP_E_TIMEOUT);
	assert_int_equal(log.n, 1);
	assert_int_equal(log.at[0] - t, 2 * IPX_SEC);
	assert_true(ipx_loop_now(r->net->loop) - t > 10 * IPX_SEC);
	ncp_client_abandon(cl);
	ipx_socket_close(m.sock);
	ncprig_free(r);
}

/* Names that are not 8.3 are refused with a word that says so. */
static void test_check_path(void **state)
{
	(void)state;
	assert_int_equal(ncp_check_path("SYS:PUBLIC\\LOGIN.EXE"), 0);
	assert_int_equal(ncp_check_path("SYS:"), 0);
	assert_int_equal(ncp_check_path("A/B/C.TX"), 0);
	assert_int_equal(ncp_check_path("*.*"), 0);
	assert_int_equal(ncp_check_path("..\\F.TXT"), 0);
	assert_int_equal(ncp_check_path("LONGFILENAME.TXT"), NCP_E_NOT83);
	assert_int_equal(ncp_check_path("SYS:DOCS\\F.HTML"), NCP_E_NOT83);
	assert_int_equal(ncp_check_path("A.B.C"), NCP_E_NOT83);
	assert_int_equal(ncp_check_path(".PROFILE"), NCP_E_NOT83);
	assert_int_equal(ncp_check_path("NINECHARS\\X"), NCP_E_NOT83);
	assert_non_null(strstr(ncp_strerror(NCP_E_NOT83), "not an 8.3 name"));
}

/* Paths split before their last name, the separator kept in the
 * directory (ls, get and put of ipxlab ncp). */
static void test_path_split(void **state)
{
	char dir[16], small[8];
	const char *name;

	(void)state;
	assert_string_equal(ncp_path_name("SYS:PUBLIC\\LOGIN.EXE"), "LOGIN.EXE");
	assert_string_equal(ncp_path_name("A/B"), "B");
	assert_string_equal(ncp_path_name("SYS:"), "");
	assert_string_equal(ncp_path_name("F.TXT"), "F.TXT");
	ncp_path_split("SYS:DIR\\F.TXT", dir, sizeof(dir), &name);
	assert_string_equal(dir, "SYS:DIR\\");
	assert_string_equal(name, "F.TXT");
	ncp_path_split("SYS:", dir, sizeof(dir), &name);
	assert_string_equal(dir, "SYS:");
	assert_string_equal(name, "");
	ncp_path_split("*.*", dir, sizeof(dir), &name);
	assert_string_equal(dir, "");
	assert_string_equal(name, "*.*");
	/* a directory longer than the buffer is cut, not overrun */
	ncp_path_split("SYS:LONGDIR\\X", small, sizeof(small), &name);
	assert_string_equal(small, "SYS:LON");
	assert_string_equal(name, "X");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_netware_search_semantics),
		cmocka_unit_test(test_own_server_lists_once),
		cmocka_unit_test(test_second_pass_only_where_needed),
		cmocka_unit_test(test_buffer_clamped_to_the_link),
		cmocka_unit_test(test_unsent_request_keeps_the_sequence),
		cmocka_unit_test(test_find_resends_and_falls_back),
		cmocka_unit_test(test_not_responding_is_said),
		cmocka_unit_test(test_check_path),
		cmocka_unit_test(test_path_split),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
