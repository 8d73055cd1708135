/*
 * fuzz_ncp_client.c - libFuzzer harness for the NCP client's reply
 * parsing (src/ncp/client.c, client_fs.c, client_ns.c): a scripted server answers the
 * connection set-up properly, then answers the call under test with the
 * fuzzed bytes (for its first four requests; then FF, so loops end).
 *
 * Input: byte 0 flags, byte 1 the call, the rest the reply.
 *   bit 0  patch the reply header to match the request (3333, its
 *          sequence and connection), so the call's own parser is reached
 *   bit 1  send a 9999 before the reply
 *   bit 2  also deliver the bytes to the watchdog socket
 *   bit 3  a client of long names (opts.long_names) on a server that
 *          lists the LONG name space at connect: list, stat, open go
 *          through 0x57 and client_ns.c parses the fuzzed reply
 * Calls: read (even/odd offset), list, stat, whoami, server info,
 * negotiate, open, size, a raw request, keyed login, get message, the
 * connections of a user, send message, effective rights (0x16 0x2A),
 * the trustee scan (0x16 0x0C), a user's name by ID (0x17 0x37).
 *
 * Invariants: no crash; every result has a name; a read never reports
 * more than it asked for.
 */
#include <stdlib.h>
#include <string.h>

#include "ipxlab/bytes.h"
#include "ipxlab/ncp_client.h"

#include "fuzz_ncp_world.h"

static struct ncp_world w;
static struct ipx_socket *ss;
static const uint8_t *fz;
static size_t fzlen;
static uint8_t fzflags;
static int answered;

static void reply(const struct ipx_header *h, const uint8_t *p, size_t len)
{
	ipx_socket_sendto(ss, &h->src, 17, p, len);
}

static void on_request(struct ipx_socket *s, const struct ipx_header *h,
		       const uint8_t *data, size_t len, void *ctx)
{
	struct ncp_req_hdr rq;
	struct ncp_rep_hdr rp = { 0x3333, 0, 3, 0, 0, 0 };
	uint8_t out[1500];

	(void)s;
	(void)ctx;
	if (ncp_req_decode(data, len, &rq) < 0)
		return;
	rp.seq = rq.seq;
	rp.task = rq.task;
	ncp_rep_encode(&rp, out);
	if (rq.function == 0x57 && fz == NULL) {	/* name spaces: DOS, LONG */
		out[8] = 2;
		out[9] = 0;
		out[10] = 0;
		out[11] = 4;
		reply(h, out, 12);
		return;
	}
	if (rq.type == 0x1111 || rq.type == 0x5555 ||
	    (rq.function == 0x16 && fz == NULL)) {
		out[8] = 1;	/* directory handle 1, all rights */
		out[9] = 0xFF;
		reply(h, out, 10);
		return;
	}
	if (!fz || answered >= 4) {
		out[6] = 0xFF;
		reply(h, out, 8);
		return;
	}
	answered++;
	if (fzflags & 2) {
		rp.type = 0x9999;
		ncp_rep_encode(&rp, out);
		reply(h, out, 8);
	}
	memcpy(out, fz, fzlen);
	if ((fzflags & 1) && fzlen >= 8) {
		rp.type = 0x3333;
		rp.cc = out[6];
		rp.status = out[7];
		ncp_rep_encode(&rp, out);
	}
	reply(h, out, fzlen);
}

static int each_trustee(const struct ncp_trustee_entry *e, void *ctx)
{
	(void)ctx;
	CHECK(e->id != 0 && e->rights <= 0xFF);
	return 0;
}

static int each(const struct ncp_entry *e, void *ctx)
{
	(void)ctx;
	CHECK(memchr(e->name, '\0', sizeof(e->name)) != NULL);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	struct ncp_client_opts co = { .rto = 20 * IPX_MSEC,
				      .busy_wait = 50 * IPX_MSEC,
				      .retries = 0 };
	struct ncp_client *cl;
	struct ipx_addr srv;
	uint8_t buf[4096], r[64];
	struct ncp_fh fh = { { 0 }, 0 };
	struct ncp_entry e;
	struct ncp_server_info si;
	char user[64];
	size_t got = 0, rl;
	uint32_t sz;
	int rc = 0;

	if (!ready) {
		ncp_world_open(&w);
		CHECK(ipx_socket_open(w.a, 0x451, on_request, NULL, &ss) ==
		      IPX_OK);
		ready = true;
	}
	if (size < 2)
		return 0;
	fz = NULL;
	answered = 0;
	fzflags = data[0];
	co.long_names = (fzflags & 8) != 0;
	CHECK(ncp_client_new(w.b, &co, &cl) == IPX_OK);
	ipx_node_address(w.a, &srv);
	srv.socket = 0x451;
	CHECK(ncp_connect(cl, &srv) == 0);
	CHECK(ncp_long_names(cl) == co.long_names);
	fz = data + 2;
	fzlen = size - 2 > 1400 ? 1400 : size - 2;
	if (fzflags & 4) {
		struct ipx_addr wd;

		ipx_node_address(w.b, &wd);
		wd.socket = 0x4011;
		/* The watchdog socket of the first client (0x4010 + 1). */
		ipx_socket_sendto(ss, &wd, 17, fz, fzlen);
	}
	switch (data[1] % 17) {
	case 0:
	case 1:
		rc = ncp_read(cl, &fh, data[1] % 2, buf, 3000, &got);
		CHECK(got <= 3000);
		break;
	case 2:
		rc = ncp_list(cl, "SYS:", NULL, each, NULL);
		break;
	case 3:
		rc = ncp_stat(cl, "SYS:A.TXT", &e);
		break;
	case 4:
		rc = ncp_whoami(cl, user, sizeof(user), NULL);
		break;
	case 5:
		rc = ncp_get_server_info(cl, &si);
		break;
	case 6:
		rc = ncp_negotiate(cl, 1024);
		CHECK(ncp_bufsize(cl) >= 512 && ncp_bufsize(cl) <= 1476);
		break;
	case 7:
		rc = ncp_open(cl, "A.TXT", NCP_OPEN_READ, &fh);
		break;
	case 8:
		rc = ncp_file_size(cl, &fh, &sz);
		break;
	case 10:	/* keyed login: key, object ID, login fuzzed */
		rc = ncp_login(cl, "GUEST", "pw");
		break;
	case 11:
		rc = ncp_get_message(cl, user, sizeof(user));
		if (rc == 0)
			CHECK(strlen(user) < sizeof(user));
		break;
	case 12: {
		uint16_t conns[4];
		size_t n;

		rc = ncp_user_connections(cl, "GUEST", conns, 4, &n);
		CHECK(n <= 4);
		break;
	}
	case 13: {
		uint16_t to[2] = { 1, 300 };
		uint8_t st[2];

		rc = ncp_send_message(cl, to, 2, "hi", st);
		break;
	}
	case 14:
		rc = ncp_effective_rights(cl, "SYS:", &(uint16_t){ 0 });
		break;
	case 15:
		rc = ncp_scan_trustees(cl, "SYS:A", each_trustee, NULL);
		break;
	case 16:
		rc = ncp_user_name(cl, 5, user, sizeof(user));
		if (rc == 0)
			CHECK(strlen(user) < sizeof(user));
		break;
	default:
		rc = ncp_request(cl, 0x14, NULL, 0, r, sizeof(r), &rl);
		if (rc == 0)
			CHECK(rl <= sizeof(r));
	}
	CHECK(ncp_strerror(rc) != NULL);
	if (ncp_parse_entry(fz, fzlen, &e) == 0)
		CHECK(e.name[14] == '\0');
	fz = NULL;
	ncp_client_free(cl);
	CHECK(ipx_loop_run_for(w.loop, 100 * IPX_MSEC) == IPX_OK);
	return 0;
}
