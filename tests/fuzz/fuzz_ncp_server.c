/*
 * fuzz_ncp_server.c - libFuzzer harness for the NCP server's request
 * parser (src/fileserver/server.c and the fn_*.c handlers), serving a
 * temporary SYS volume beside a directory "outside" it.
 *
 * Input: byte 0 flags, the rest an NCP packet sent to socket 0x451 from
 * a client node that holds a logged-in connection.
 *   bit 0  patch the header into a request (2222) of that connection
 *          with the next sequence number, so the handlers are reached
 *   bit 1  log out first (the before-login rules apply)
 *   bit 2  send the packet twice (a repeat, answered from the cache)
 *   bit 3  use IPX packet type 0 instead of 17
 *
 * Invariants: no crash; the file outside the volume keeps its bytes; no
 * new entry appears beside the volume (the server's trustee store, GUEST
 * with RWCEMFA in SYS:, lives in a directory of its own); every reply is
 * at least a full header; the connection table and open files stay within their limits.
 */
#include <dirent.h>
#include <ftw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/ncp_server.h"

#include "fuzz_ncp_world.h"

static struct ncp_world w;
static struct ncp_server *srv;
static struct ipx_socket *cs;
static char root[64], outside[128], rdir[64];
static uint16_t conn;
static uint8_t seq;
static size_t replies, short_replies;

static void on_reply(struct ipx_socket *s, const struct ipx_header *h,
		     const uint8_t *data, size_t len, void *ctx)
{
	(void)s;
	(void)h;
	(void)ctx;
	replies++;
	if (len < 8)
		short_replies++;
	else if (ipx_get16(data) == 0x3333 && data[2] == 0 && len >= 8 &&
		 (data[3] | data[5] << 8) != 0xFFFF && !conn)
		conn = (uint16_t)(data[3] | data[5] << 8);
}

static void send_pkt(const uint8_t *p, size_t len, uint8_t type)
{
	struct ipx_addr to;

	ipx_node_address(w.a, &to);
	to.socket = 0x451;
	ipx_socket_sendto(cs, &to, type, p, len);
	CHECK(ipx_loop_run_for(w.loop, 5 * IPX_MSEC) == IPX_OK);
}

static void request(uint8_t fn, const uint8_t *data, size_t len)
{
	uint8_t p[600];

	seq++;
	ipx_put16(p, 0x2222);
	p[2] = seq;
	p[3] = (uint8_t)conn;
	p[4] = 1;
	p[5] = (uint8_t)(conn >> 8);
	p[6] = fn;
	if (len)
		memcpy(p + 7, data, len);
	send_pkt(p, 7 + len, 17);
}

static void login(void)
{
	request(0x17, (const uint8_t *)"\x00\x0A\x14\x00\x01\x05GUEST\x00", 12);
	request(0x16, (const uint8_t *)"\x00\x07\x12\x00\x5A\x04SYS:", 10);
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

/* The temporary volume goes when the fuzzer exits. */
static void cleanup(void)
{
	ncp_server_free(srv);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	nftw(rdir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void world(void)
{
	/* Clear text taken: the harness logs in with it (login()). */
	struct ncp_server_opts o = { .name = "FUZZSRV", .nvolumes = 1,
				     .max_connections = 4, .max_handles = 8,
				     .max_locks = 8, .allow_clear_text = true };
	static char rfile[128];
	char err[256], p[256];
	uint8_t create[7] = { 0x11, 0x11, 0, 0xFF, 2, 0xFF, 0 };
	FILE *f;

	ncp_world_open(&w);
	snprintf(root, sizeof(root), "/tmp/fuzz-ncp.XXXXXX");
	CHECK(mkdtemp(root));
	atexit(cleanup);
	snprintf(p, sizeof(p), "%s/sys", root);
	CHECK(mkdir(p, 0755) == 0);
	snprintf(outside, sizeof(outside), "%s/outside", root);
	CHECK(mkdir(outside, 0755) == 0);
	snprintf(p, sizeof(p), "%s/SECRET.TXT", outside);
	f = fopen(p, "w");
	CHECK(f);
	fputs("secret\n", f);
	fclose(f);
	snprintf(p, sizeof(p), "%s/sys/LINK", root);
	CHECK(symlink(outside, p) == 0);
	strcpy(o.volumes[0].name, "SYS");
	snprintf(o.volumes[0].dir, sizeof(o.volumes[0].dir), "%s/sys", root);
	/* A trustee store (beside the volume's directory, not in it): GUEST
	 * has every right but Supervisory in SYS:, so the trustee calls and
	 * the checks are reached. */
	snprintf(rdir, sizeof(rdir), "/tmp/fuzz-ncp-rights.XXXXXX");
	CHECK(mkdtemp(rdir));
	snprintf(rfile, sizeof(rfile), "%s/rights", rdir);
	f = fopen(rfile, "w");
	CHECK(f);
	fputs("SYS: GUEST RWCEMFA\n", f);
	fclose(f);
	o.rights_file = rfile;
	CHECK(ncp_server_new(w.a, &o, &srv, err, sizeof(err)) == IPX_OK);
	CHECK(ipx_socket_open(w.b, 0x4020, on_reply, NULL, &cs) == IPX_OK);
	send_pkt(create, sizeof(create), 17);
	CHECK(conn != 0);
	login();
}

static void check_outside(void)
{
	char p[256];
	struct stat st;
	DIR *d = opendir(root);
	struct dirent *e;
	int n = 0;

	snprintf(p, sizeof(p), "%s/SECRET.TXT", outside);
	CHECK(stat(p, &st) == 0 && st.st_size == 7);
	CHECK(d);
	while ((e = readdir(d)))
		n++;
	closedir(d);
	CHECK(n == 4);	/* ., .., sys, outside */
	d = opendir(outside);
	CHECK(d);
	n = 0;
	while ((e = readdir(d)))
		n++;
	closedir(d);
	CHECK(n == 3);	/* ., .., SECRET.TXT */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t p[1500];
	uint8_t flags;
	size_t len;

	if (!srv)
		world();
	if (size < 1)
		return 0;
	flags = data[0];
	len = size - 1 > sizeof(p) ? sizeof(p) : size - 1;
	memcpy(p, data + 1, len);
	if (flags & 2)
		request(0x19, NULL, 0);
	if ((flags & 1) && len >= 7) {
		seq++;
		ipx_put16(p, 0x2222);
		p[2] = seq;
		p[3] = (uint8_t)conn;
		p[5] = (uint8_t)(conn >> 8);
	}
	send_pkt(p, len, flags & 8 ? 0 : 17);
	if (flags & 4)
		send_pkt(p, len, flags & 8 ? 0 : 17);
	if (len >= 3 && ipx_get16(p) == 0x2222)
		seq = p[2];
	CHECK(short_replies == 0);
	CHECK(ncp_server_connections(srv) <= 4);
	CHECK(ncp_server_open_files(srv) <= 4 * 8);
	check_outside();
	/* Start the next input from a known state: this connection logged
	 * in again (or a new one if the input destroyed it), the clock on. */
	if (ncp_server_connections(srv) == 0 || (flags & 2) ||
	    (len >= 2 && ipx_get16(p) != 0x2222)) {
		uint8_t create[7] = { 0x11, 0x11, 0, 0xFF, 2, 0xFF, 0 };

		conn = 0;
		seq = 0;
		send_pkt(create, sizeof(create), 17);
		if (conn)
			login();
	}
	CHECK(ipx_loop_run_for(w.loop, 3 * IPX_SEC) == IPX_OK);
	return 0;
}
