/*
 * test_ncp.c - the NCP server and client on an in-memory segment with the
 * fake clock: finding the server with SAP, each function's request and
 * reply, repeats answered from the cached reply (a non-idempotent call
 * done exactly once), 0x9999 while a lock waits, 1 MB each way under
 * loss, duplication and reordering, locks between two connections, the
 * watchdog clearing a silent connection and its locks, full tables,
 * unknown connections and functions, and the codec.
 */
#include "cm.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/ncp_server.h"
#include "ncprig.h"

static int setup(void **state)
{
	*state = ncprig_new(NULL);
	return 0;
}

static int teardown(void **state)
{
	ncprig_free(*state);
	return 0;
}

/* ---- codec ---- */

static void test_codec(void **state)
{
	struct ncp_req_hdr rq = { 0x2222, 7, 0x0102, 3, 0x48 }, rq2;
	struct ncp_rep_hdr rp = { 0x3333, 7, 0x0102, 3, 0x9C, 0x01 }, rp2;
	uint8_t b[16];

	(void)state;
	ncp_req_encode(&rq, b);
	assert_memory_equal(b, "\x22\x22\x07\x02\x03\x01\x48", 7);
	assert_int_equal(ncp_req_decode(b, 7, &rq2), 0);
	assert_int_equal(rq2.conn, 0x0102);
	assert_int_equal(ncp_req_decode(b, 6, &rq2), -1);
	ncp_rep_encode(&rp, b);
	assert_memory_equal(b, "\x33\x33\x07\x02\x03\x01\x9C\x01", 8);
	assert_int_equal(ncp_rep_decode(b, 8, &rp2), 0);
	assert_int_equal(rp2.cc, 0x9C);
	assert_int_equal(ncp_rep_decode(b, 7, &rp2), -1);
	assert_string_equal(ncp_cc_id(0x9C), "BAD_PATH");
	assert_string_equal(ncp_cc_id(0x42), "UNNAMED");
	assert_non_null(strstr(ncp_strerror(NCP_E_TIMEOUT), "no reply"));
	assert_non_null(strstr(ncp_strerror(0x101), "does not know"));
	assert_true(ncp_has_length_word(0x16));
	assert_false(ncp_has_length_word(0x48));
	/* DOS date of 2 Jan 1990 12:00 local. */
	{
		struct tm tm = { .tm_year = 90, .tm_mon = 0, .tm_mday = 2,
				 .tm_hour = 12, .tm_isdst = -1 };
		time_t t = mktime(&tm);

		assert_int_equal(ncp_dos_date(t), (10 << 9) | (1 << 5) | 2);
		assert_int_equal(ncp_dos_time(t), 12 << 11);
	}
}

/* ---- finding, connecting, info ---- */

static void test_find_login_info(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *cl;
	struct ipx_addr a;
	char name[48], user[64];
	struct ncp_server_info si;
	uint8_t st, rep[16];
	size_t rl;

	assert_int_equal(ncp_client_new(r->cli->node, NULL, &cl), IPX_OK);
	assert_int_equal(ncp_find_server(cl, r->cli->sap, NULL, 2 * IPX_SEC,
					 &a, name), 0);
	assert_string_equal(name, "TESTSRV");
	assert_int_equal(a.socket, 0x451);
	assert_int_equal(ncp_find_server(cl, r->cli->sap, "testsrv",
					 2 * IPX_SEC, &a, NULL), 0);
	assert_int_equal(ncp_find_server(cl, r->cli->sap, "NOSUCH",
					 2 * IPX_SEC, &a, NULL),
			 NCP_E_NOSERVER);
	assert_int_equal(ncp_connect(cl, &a), 0);
	assert_int_equal(ncp_server_connections(r->srv), 1);
	/* Before login: only SYS:LOGIN. */
	assert_int_equal(ncp_whoami(cl, user, sizeof(user), &st), 0);
	assert_string_equal(user, "");
	assert_int_equal(ncp_mkdir(cl, "SYS:PUBLIC"), NCP_CC_BAD_PATH);
	assert_int_equal(ncp_login(cl, "GUEST", "wrong"), NCP_CC_BAD_PASSWORD);
	assert_int_equal(ncp_login(cl, "NOBODY", ""), NCP_CC_NO_OBJECT);
	assert_int_equal(ncp_login(cl, "SUPERVISOR", ""), NCP_CC_BAD_PASSWORD);
	assert_int_equal(ncp_login(cl, "alice", "Secret"), 0);
	assert_int_equal(ncp_whoami(cl, user, sizeof(user), &st), 0);
	assert_string_equal(user, "ALICE");
	assert_int_equal(st, ncp_connection(cl));
	assert_int_equal(ncp_login(cl, "guest", ""), 0);
	assert_int_equal(ncp_negotiate(cl, 1024), 0);
	assert_int_equal(ncp_bufsize(cl), 1024);
	assert_int_equal(ncp_get_server_info(cl, &si), 0);
	assert_string_equal(si.name, "TESTSRV");
	assert_int_equal(si.conns, 1);
	assert_int_equal(si.volumes, 2);
	/* 0x14 date and time: 7 bytes, year since 1900. */
	assert_int_equal(ncp_request(cl, 0x14, NULL, 0, rep, sizeof(rep), &rl),
			 0);
	assert_int_equal(rl, 7);
	assert_true(rep[0] >= 120 && rep[1] >= 1 && rep[1] <= 12);
	/* 0x12 volume info: 28 bytes, the name at +10. */
	assert_int_equal(ncp_request(cl, 0x12, "\x01", 1, rep, sizeof(rep),
				     &rl), 0);
	assert_int_equal(ncp_request(cl, 0x12, "\x05", 1, NULL, 0, NULL),
			 NCP_CC_NO_VOLUME);
	/* 0x21 alone: min(server, asked), never below 512. */
	assert_int_equal(ncp_request(cl, 0x21, "\x01\x00", 2, rep, sizeof(rep),
				     &rl), 0);
	assert_int_equal(ipx_get16(rep), 512);
	/* 0x13: 3 bytes; 0x17 0x16: 62 (as Novell's library and Wireshark
	 * read them). */
	assert_int_equal(ncp_request(cl, 0x13, NULL, 0, rep, sizeof(rep), &rl),
			 0);
	assert_int_equal(rl, 3);
	{
		uint8_t big[80], q[4] = { 0, 2, 0x16, (uint8_t)ncp_connection(cl) };

		assert_int_equal(ncp_request(cl, 0x17, q, 4, big, sizeof(big),
					     &rl), 0);
		assert_int_equal(rl, 62);
		assert_string_equal((char *)big + 6, "GUEST");
	}
	/* An unknown function: FB, counted by number. */
	assert_int_equal(ncp_request(cl, 0x99, NULL, 0, NULL, 0, NULL),
			 NCP_CC_UNKNOWN_REQUEST);
	assert_int_equal(ncp_server_stats(r->srv)->unknown[0x99], 1);
	assert_int_equal(ncp_disconnect(cl), 0);
	assert_int_equal(ncp_server_connections(r->srv), 0);
	ncp_client_free(cl);
}

/* ---- files ---- */

static int collect(const struct ncp_entry *e, void *ctx)
{
	char *s = ctx;

	strcat(s, e->name);
	strcat(s, e->attr & NCP_ATTR_DIRECTORY ? "/ " : " ");
	return 0;
}

static void test_files(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *cl = ncprig_login(r, "GUEST", "");
	struct ncp_fh fh, fh2;
	struct ncp_entry e;
	uint8_t buf[4096], rep[64], req[32];
	char list[512] = "", host[600];
	size_t got, rl;
	uint32_t size;
	struct stat st;

	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 1);
	/* Create, write, size, read back. */
	assert_int_equal(ncp_open(cl, "SYS:DOC.TXT", NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_write(cl, &fh, 0, buf, 3000), 0);
	assert_int_equal(ncp_file_size(cl, &fh, &size), 0);
	assert_int_equal(size, 3000);
	/* The write is on the host before the reply (and named upper case). */
	snprintf(host, sizeof(host), "%s/DOC.TXT", r->sys);
	assert_int_equal(stat(host, &st), 0);
	assert_int_equal(st.st_size, 3000);
	assert_int_equal(ncp_commit(cl, &fh), 0);
	assert_int_equal(ncp_server_stats(r->srv)->fsyncs, 1);
	memset(rep, 0, sizeof(rep));
	assert_int_equal(ncp_read(cl, &fh, 0, buf + 3000, 1000, &got), 0);
	assert_int_equal(got, 1000);
	assert_memory_equal(buf + 3000, buf, 1000);
	/* 0x48 at an odd offset: one pad byte before the data. */
	memset(req, 0, sizeof(req));
	memcpy(req + 1, fh.h, 6);
	ipx_put32(req + 7, 5);
	ipx_put16(req + 11, 4);
	assert_int_equal(ncp_request(cl, 0x48, req, 13, rep, sizeof(rep), &rl),
			 0);
	assert_int_equal(ipx_get16(rep), 4);
	assert_int_equal(rl, 2 + 1 + 4);
	assert_memory_equal(rep + 3, buf + 5, 4);
	ipx_put32(req + 7, 6);
	assert_int_equal(ncp_request(cl, 0x48, req, 13, rep, sizeof(rep), &rl),
			 0);
	assert_int_equal(rl, 2 + 4);
	assert_memory_equal(rep + 2, buf + 6, 4);
	/* Past the end: 0 bytes. */
	assert_int_equal(ncp_read(cl, &fh, 5000, buf, 10, &got), 0);
	assert_int_equal(got, 0);
	/* A zero-length write truncates at its offset. */
	assert_int_equal(ncp_write(cl, &fh, 100, NULL, 0), 0);
	assert_int_equal(ncp_file_size(cl, &fh, &size), 0);
	assert_int_equal(size, 100);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_close(cl, &fh), NCP_CC_BAD_HANDLE);
	assert_int_equal(ncp_server_open_files(r->srv), 0);
	/* Create-new refuses an existing name; open finds it in any case. */
	assert_int_equal(ncp_open(cl, "doc.txt", NCP_OPEN_CREATE_NEW, &fh2),
			 NCP_CC_NAME_EXISTS);
	assert_int_equal(ncp_open(cl, "doc.txt", NCP_OPEN_READ, &fh2), 0);
	assert_int_equal(fh2.size, 100);
	/* Opened read-only: writes refused. */
	assert_int_equal(ncp_write(cl, &fh2, 0, buf, 1), NCP_CC_NO_WRITE);
	assert_int_equal(ncp_close(cl, &fh2), 0);
	/* Directories, listing, stat. */
	assert_int_equal(ncp_mkdir(cl, "SYS:SUB"), 0);
	assert_int_equal(ncp_mkdir(cl, "SYS:SUB"), NCP_CC_FAILURE);
	assert_int_equal(ncp_open(cl, "SUB\\A.DAT", NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_open(cl, "SUB/B.DAT", NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_list(cl, "SYS:", NULL, collect, list), 0);
	assert_string_equal(list, "DOC.TXT LOGIN/ SUB/ ");
	list[0] = '\0';
	assert_int_equal(ncp_list(cl, "SYS:SUB", "*.DAT", collect, list), 0);
	assert_string_equal(list, "A.DAT B.DAT ");
	assert_int_equal(ncp_stat(cl, "SYS:DOC.TXT", &e), 0);
	assert_int_equal(e.size, 100);
	assert_int_equal(ncp_stat(cl, "SYS:SUB", &e), 0);
	assert_true(e.attr & NCP_ATTR_DIRECTORY);
	assert_int_equal(ncp_stat(cl, "SYS:NONE.TXT", &e), NCP_CC_FAILURE);
	/* 0x40 search for a file. */
	memset(req, 0, sizeof(req));
	ipx_put16(req, 0xFFFF);
	req[2] = 1;	/* the SYS: handle of a fresh login */
	req[4] = 9;
	memcpy(req + 5, "SUB\\B.DAT", 9);
	assert_int_equal(ncp_request(cl, 0x40, req, 14, rep, sizeof(rep), &rl),
			 0);
	assert_int_equal(rl, 32);
	assert_string_equal((char *)rep + 4, "B.DAT");
	/* Rename, erase with wildcards. */
	assert_int_equal(ncp_rename(cl, "SUB\\A.DAT", "SUB\\C.DAT"), 0);
	assert_int_equal(ncp_rename(cl, "SUB\\C.DAT", "SUB\\B.DAT"),
			 NCP_CC_NAME_EXISTS);
	assert_int_equal(ncp_rename(cl, "SUB\\C.DAT", "DATA:C.DAT"),
			 NCP_CC_CROSS_VOLUME);
	assert_int_equal(ncp_rmdir(cl, "SYS:SUB"), NCP_CC_DIR_IN_USE);
	assert_int_equal(ncp_erase(cl, "SUB\\*.DAT"), 0);
	assert_int_equal(ncp_erase(cl, "SUB\\*.DAT"), NCP_CC_FAILURE);
	assert_int_equal(ncp_rmdir(cl, "SYS:SUB"), 0);
	/* Attributes: read-only refuses writing opens and erasing. */
	memset(req, 0, sizeof(req));
	req[0] = NCP_ATTR_READ_ONLY;
	req[1] = 1;
	req[2] = 0;
	req[3] = 7;
	memcpy(req + 4, "DOC.TXT", 7);
	assert_int_equal(ncp_request(cl, 0x46, req, 11, NULL, 0, NULL), 0);
	assert_int_equal(ncp_stat(cl, "DOC.TXT", &e), 0);
	assert_true(e.attr & NCP_ATTR_READ_ONLY);
	assert_int_equal(ncp_erase(cl, "DOC.TXT"), NCP_CC_ALL_RO);
	req[0] = 0;
	assert_int_equal(ncp_request(cl, 0x46, req, 11, NULL, 0, NULL), 0);
	assert_int_equal(ncp_erase(cl, "DOC.TXT"), 0);
	/* The read-only volume: reading yes, any change no. */
	assert_int_equal(ncp_open(cl, "DATA:README.TXT", NCP_OPEN_READ, &fh), 0);
	assert_int_equal(ncp_read(cl, &fh, 0, buf, 100, &got), 0);
	assert_int_equal(got, 6);
	assert_memory_equal(buf, "hello\n", 6);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_open(cl, "DATA:README.TXT", NCP_OPEN_WRITE, &fh),
			 NCP_CC_NO_WRITE);
	assert_int_equal(ncp_open(cl, "DATA:NEW.TXT", NCP_OPEN_CREATE, &fh),
			 NCP_CC_NO_CREATE);
	assert_int_equal(ncp_erase(cl, "DATA:README.TXT"), NCP_CC_NO_DELETE);
	assert_int_equal(ncp_rename(cl, "DATA:README.TXT", "DATA:X.TXT"),
			 NCP_CC_NO_RENAME);
	assert_int_equal(ncp_mkdir(cl, "DATA:D"), NCP_CC_NO_CREATE);
	assert_true(ncp_server_stats(r->srv)
			    ->refusals[NCP_SRV_REF_READ_ONLY] >= 5);
	ncp_client_free(cl);
}

/* The functions the client library does not wrap, by hand. */
static size_t sub16(uint8_t *b, uint8_t sub, const void *data, size_t len)
{
	ipx_put16(b, (uint16_t)(len + 1));
	b[2] = sub;
	if (len)
		memcpy(b + 3, data, len);
	return len + 3;
}

static void test_more_functions(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *cl = ncprig_login(r, "GUEST", "");
	uint8_t b[300], rep[200], h[8];
	size_t rl, n;
	struct ncp_fh fh, fh2;
	struct stat st;
	char host[600];

	assert_int_equal(ncp_mkdir(cl, "SYS:D1"), 0);
	assert_int_equal(ncp_mkdir(cl, "SYS:D1\\D2"), 0);
	/* 0x16 12 allocate a handle on D1 (handle 2), 0x16 01 its path. */
	n = sub16(b, 0x12, "\x01" "F" "\x02" "D1", 5);
	assert_int_equal(ncp_request(cl, 0x16, b, n, rep, sizeof(rep), &rl), 0);
	assert_int_equal(rl, 2);
	assert_int_equal(rep[0], 2);
	assert_int_equal(rep[1], NCP_RIGHTS_ALL);
	n = sub16(b, 0x01, "\x02", 1);
	assert_int_equal(ncp_request(cl, 0x16, b, n, rep, sizeof(rep), &rl), 0);
	assert_int_equal(rep[0], 6);
	assert_memory_equal(rep + 1, "SYS:D1", 6);
	/* 0x16 00 set handle 2 to D1\D2 (relative to itself). */
	n = sub16(b, 0x00, "\x02\x02\x02" "D2", 5);
	assert_int_equal(ncp_request(cl, 0x16, b, n, NULL, 0, NULL), 0);
	n = sub16(b, 0x01, "\x02", 1);
	assert_int_equal(ncp_request(cl, 0x16, b, n, rep, sizeof(rep), &rl), 0);
	assert_memory_equal(rep + 1, "SYS:D1\\D2", 9);
	/* 0x16 02 scan directory information of SYS: finds D1 (number 1). */
	n = sub16(b, 0x02, "\x01\x00\x00\x01*", 5);
	assert_int_equal(ncp_request(cl, 0x16, b, n, rep, sizeof(rep), &rl), 0);
	assert_int_equal(rl, 28);
	assert_string_equal((char *)rep, "D1");
	assert_int_equal(ipx_get16(rep + 26), 1);
	/* 0x16 03 effective rights; 0x16 05/06 volume number and name. */
	n = sub16(b, 0x03, "\x01\x02" "D1", 4);
	assert_int_equal(ncp_request(cl, 0x16, b, n, rep, sizeof(rep), &rl), 0);
	assert_int_equal(rep[0], NCP_RIGHTS_ALL);
	n = sub16(b, 0x05, "\x04" "DATA", 5);
	assert_int_equal(ncp_request(cl, 0x16, b, n, rep, sizeof(rep), &rl), 0);
	assert_int_equal(rep[0], 1);
	n = sub16(b, 0x06, "\x00", 1);
	assert_int_equal(ncp_request(cl, 0x16, b, n, rep, sizeof(rep), &rl), 0);
	assert_memory_equal(rep, "\x03SYS", 4);
	n = sub16(b, 0x05, "\x04NONE", 5);
	assert_int_equal(ncp_request(cl, 0x16, b, n, NULL, 0, NULL),
			 NCP_CC_NO_VOLUME);
	/* 0x16 15 volume info with handle: 28 bytes, the name at +10. */
	n = sub16(b, 0x15, "\x02", 1);
	assert_int_equal(ncp_request(cl, 0x16, b, n, rep, sizeof(rep), &rl), 0);
	assert_int_equal(rl, 28);
	assert_string_equal((char *)rep + 10, "SYS");
	/* 0x16 0F rename directory; 0x16 14 free the handle. */
	n = sub16(b, 0x0F, "\x01\x02" "D1" "\x02" "D3", 7);
	assert_int_equal(ncp_request(cl, 0x16, b, n, NULL, 0, NULL), 0);
	snprintf(host, sizeof(host), "%s/D3/D2", r->sys);
	assert_int_equal(stat(host, &st), 0);
	n = sub16(b, 0x14, "\x02", 1);
	assert_int_equal(ncp_request(cl, 0x16, b, n, NULL, 0, NULL), 0);
	assert_int_equal(ncp_request(cl, 0x16, b, n, NULL, 0, NULL),
			 NCP_CC_BAD_DIR_HANDLE);
	/* A temporary handle (0x16 13) goes at end of job. */
	n = sub16(b, 0x13, "\x01" "G" "\x02" "D3", 5);
	assert_int_equal(ncp_request(cl, 0x16, b, n, rep, sizeof(rep), &rl), 0);
	b[0] = rep[0];
	assert_int_equal(ncp_request(cl, 0x18, NULL, 0, NULL, 0, NULL), 0);
	n = sub16(b + 10, 0x01, b, 1);
	assert_int_equal(ncp_request(cl, 0x16, b + 10, n, NULL, 0, NULL),
			 NCP_CC_BAD_DIR_HANDLE);
	/* 0x17 12 serial, 0x17 13 internet address, 0x17 35 object ID. */
	n = sub16(b, 0x12, NULL, 0);
	assert_int_equal(ncp_request(cl, 0x17, b, n, rep, sizeof(rep), &rl), 0);
	assert_int_equal(rl, 6);
	h[0] = (uint8_t)ncp_connection(cl);
	n = sub16(b, 0x13, h, 1);
	assert_int_equal(ncp_request(cl, 0x17, b, n, rep, sizeof(rep), &rl), 0);
	assert_int_equal(rl, 12);
	assert_int_equal(ipx_get32(rep), 0x10);
	n = sub16(b, 0x35, "\x00\x01\x0ASUPERVISOR", 13);
	assert_int_equal(ncp_request(cl, 0x17, b, n, rep, sizeof(rep), &rl), 0);
	assert_int_equal(ipx_get32(rep), 1);
	assert_string_equal((char *)rep + 6, "SUPERVISOR");
	/* 0x17 17 (login key): 8 bytes, another each time. */
	n = sub16(b, 0x17, NULL, 0);
	assert_int_equal(ncp_request(cl, 0x17, b, n, rep, sizeof(rep), &rl), 0);
	assert_int_equal(rl, 8);
	memcpy(h, rep, 8);
	assert_int_equal(ncp_request(cl, 0x17, b, n, rep, sizeof(rep), &rl), 0);
	assert_memory_not_equal(h, rep, 8);
	assert_int_equal(ncp_server_stats(r->srv)->unknown_sub[0x17], 0);
	/* 0x54 open/create: create, then open, then create-only refused. */
	b[0] = 1;
	b[1] = 0;
	b[2] = NCP_RIGHT_READ | NCP_RIGHT_WRITE;
	b[3] = NCP_ACT_CREATE;
	b[4] = 5;
	memcpy(b + 5, "N.TXT", 5);
	assert_int_equal(ncp_request(cl, 0x54, b, 10, rep, sizeof(rep), &rl), 0);
	assert_int_equal(rl, 36);
	memcpy(fh.h, rep, 6);
	assert_int_equal(ncp_write(cl, &fh, 0, "abc", 3), 0);
	assert_int_equal(ncp_request(cl, 0x54, b, 10, NULL, 0, NULL),
			 NCP_CC_NAME_EXISTS);
	b[3] = NCP_ACT_OPEN;
	assert_int_equal(ncp_request(cl, 0x54, b, 10, rep, sizeof(rep), &rl), 0);
	assert_int_equal(ipx_get32(rep + 24), 3);
	memcpy(fh2.h, rep, 6);
	/* 0x41 old-style open: read/write here. */
	b[0] = 1;
	b[1] = 0;
	b[2] = 5;
	memcpy(b + 3, "N.TXT", 5);
	assert_int_equal(ncp_request(cl, 0x41, b, 8, rep, sizeof(rep), &rl), 0);
	memcpy(h, rep, 6);
	/* 0x4B set the date stamp to 1 Jan 1995 10:20. */
	memset(b, 0, 7);
	memcpy(b + 1, h, 6);
	ipx_put16(b + 7, 10 << 11 | 20 << 5);
	ipx_put16(b + 9, 15 << 9 | 1 << 5 | 1);
	assert_int_equal(ncp_request(cl, 0x4B, b, 11, NULL, 0, NULL), 0);
	snprintf(host, sizeof(host), "%s/N.TXT", r->sys);
	assert_int_equal(stat(host, &st), 0);
	assert_int_equal(ncp_dos_date(st.st_mtime), 15 << 9 | 1 << 5 | 1);
	/* 0x1B lock set, 0x1D release set, 0x1F clear set. */
	assert_int_equal(ncp_lock_record(cl, &fh, NCP_LOCK_LOG, 0, 2, 0), 0);
	assert_int_equal(ncp_lock_record(cl, &fh, NCP_LOCK_LOG, 4, 2, 0), 0);
	assert_int_equal(ncp_server_lock_count(r->srv), 2);
	assert_int_equal(ncp_request(cl, 0x1B, "\x01\x00\x00", 3, NULL, 0,
				     NULL), 0);
	assert_int_equal(ncp_request(cl, 0x1D, "\x00", 1, NULL, 0, NULL), 0);
	assert_int_equal(ncp_server_lock_count(r->srv), 2);
	/* 0x1C release one record: still logged. */
	assert_int_equal(ncp_lock_record(cl, &fh, NCP_LOCK_EXCL, 0, 2, 0), 0);
	memset(b, 0, 15);
	memcpy(b + 1, fh.h, 6);
	ipx_put32(b + 7, 0);
	ipx_put32(b + 11, 2);
	assert_int_equal(ncp_request(cl, 0x1C, b, 15, NULL, 0, NULL), 0);
	assert_int_equal(ncp_server_lock_count(r->srv), 2);
	assert_int_equal(ncp_request(cl, 0x1F, "\x00", 1, NULL, 0, NULL), 0);
	assert_int_equal(ncp_server_lock_count(r->srv), 0);
	/* 0x61 big packets: the size that fits, socket 0x451, no options. */
	assert_int_equal(ncp_request(cl, 0x61, "\x10\x00\x00", 3, rep,
				     sizeof(rep), &rl), 0);
	assert_int_equal(rl, 5);
	assert_int_equal(ipx_get16(rep), ipx_node_max_payload(r->cli->node,
							      NULL) - 24);
	assert_int_equal(ipx_get16(rep + 2), 0x451);
	assert_int_equal(rep[4], 0);
	/* 0x19 logout: files closed, SYS: shows LOGIN alone (N.TXT is not
	 * found, as for a user with no rights there). */
	assert_int_equal(ncp_logout(cl), 0);
	assert_int_equal(ncp_server_open_files(r->srv), 0);
	{
		struct ncp_entry e;

		assert_int_equal(ncp_stat(cl, "SYS:N.TXT", &e), NCP_CC_FAILURE);
	}
	ncp_client_free(cl);
}

/* ---- repeats: exactly once ---- */

static void test_repeat_exactly_once(void **state)
{
	struct ncprig *r = *state;
	struct rawconn *b = rawconn_open(r, true);
	uint8_t req[64];
	size_t n;
	char host[600];
	struct stat st;
	const uint8_t *rep1, *rep2;
	size_t l1;

	/* 0x4D create new, sent twice with one sequence (a lost reply). */
	req[0] = 1;	/* SYS: */
	req[1] = 0;
	req[2] = 5;
	memcpy(req + 3, "X.TXT", 5);
	n = 8;
	rep1 = rawconn_call(r, b, 0x4D, req, n, &l1);
	assert_int_equal(rep1[6], 0);
	uint8_t first[64];
	memcpy(first, rep1, l1);
	rep2 = rawconn_resend(r, b, NULL);
	assert_memory_equal(rep2, first, l1);	/* the cached reply, verbatim */
	assert_int_equal(ncp_server_stats(r->srv)->repeats, 1);
	assert_int_equal(ncp_server_open_files(r->srv), 1);	/* once */
	/* The same call with a new sequence: it exists now. */
	rep1 = rawconn_call(r, b, 0x4D, req, n, &l1);
	assert_int_equal(rep1[6], NCP_CC_NAME_EXISTS);
	/* Rename twice with one sequence: both say OK. */
	req[0] = 1;
	req[1] = 0;
	req[2] = 5;
	memcpy(req + 3, "X.TXT", 5);
	req[8] = 1;
	req[9] = 5;
	memcpy(req + 10, "Y.TXT", 5);
	rep1 = rawconn_call(r, b, 0x45, req, 15, &l1);
	assert_int_equal(rep1[6], 0);
	rep2 = rawconn_resend(r, b, NULL);
	assert_int_equal(rep2[6], 0);
	snprintf(host, sizeof(host), "%s/Y.TXT", r->sys);
	assert_int_equal(stat(host, &st), 0);
	/* Erase twice with one sequence: OK twice, not FF the second time. */
	req[0] = 1;
	req[1] = 0;
	req[2] = 5;
	memcpy(req + 3, "Y.TXT", 5);
	rep1 = rawconn_call(r, b, 0x44, req, 8, &l1);
	assert_int_equal(rep1[6], NCP_CC_ALL_IN_USE);	/* still open */
	rawconn_call(r, b, 0x18, NULL, 0, &l1);	/* end of job: closes it */
	assert_int_equal(ncp_server_open_files(r->srv), 0);
	rep1 = rawconn_call(r, b, 0x44, req, 8, &l1);
	assert_int_equal(rep1[6], 0);
	rep2 = rawconn_resend(r, b, NULL);
	assert_int_equal(rep2[6], 0);
	assert_int_equal(stat(host, &st), -1);
	assert_int_equal(ncp_server_stats(r->srv)->repeats, 3);
	/* A lost create-connection reply: the same connection again. */
	{
		struct ncp_req_hdr h = { 0x1111, 0, 0xFFFF, 2, 0 };
		uint8_t pkt[7];
		struct rawconn *c = rawconn_open(r, false);
		unsigned before = ncp_server_connections(r->srv);
		uint64_t reps = ncp_server_stats(r->srv)->repeats;
		uint64_t made = ncp_server_stats(r->srv)->created;

		ncp_req_encode(&h, pkt);
		rawconn_send_raw(r, c, pkt, 7);
		assert_int_equal(ncp_server_connections(r->srv), before);
		assert_int_equal(ncp_server_stats(r->srv)->repeats, reps + 1);
		assert_int_equal(ncp_server_stats(r->srv)->created, made);
		assert_int_equal(c->last[3], (uint8_t)c->conn);
		/* After a request, a create from that address is a new
		 * connection (the old one is gone). */
		rawconn_call(r, c, 0x13, NULL, 0, NULL);
		rawconn_send_raw(r, c, pkt, 7);
		assert_int_equal(ncp_server_stats(r->srv)->created, made + 1);
		assert_int_equal(ncp_server_connections(r->srv), before);
		rawconn_close(c);
	}
	rawconn_close(b);
}

/* ---- 1 MB under loss, duplication and reordering ---- */

static void test_megabyte_lossy(void **state)
{
	struct ncprig *r = *state;
	/* one request at a time (packet burst: test_ncp_burst.c) */
	struct ncp_client_opts o = { .retries = -1, .no_burst = true };
	struct ncp_client *cl = NULL;
	struct ipx_addr sa;
	struct ipx_mem_faults f = { .loss_ppm = 100000, .dup_ppm = 100000,
				    .reorder_ppm = 100000,
				    .reorder_delay = 30 * IPX_MSEC,
				    .delay = IPX_MSEC };
	size_t len = 1 << 20, got;
	uint8_t *a = malloc(len), *back = malloc(len), *host;
	struct ncp_fh fh;
	char path[600];
	FILE *fp;

	assert_non_null(a);
	assert_non_null(back);
	assert_int_equal(ncp_client_new(r->cli->node, &o, &cl), IPX_OK);
	ncprig_server_addr(r, &sa);
	assert_int_equal(ncp_connect(cl, &sa), 0);
	assert_int_equal(ncp_login(cl, "GUEST", ""), 0);
	for (size_t i = 0; i < len; i++)
		a[i] = (uint8_t)((i * 2654435761u) >> 13);
	assert_int_equal(ncp_negotiate(cl, 1024), 0);
	ipx_mem_segment_set_faults(r->net->seg[0], &f);
	assert_int_equal(ncp_open(cl, "BIG.BIN", NCP_OPEN_CREATE, &fh), 0);
	assert_int_equal(ncp_write(cl, &fh, 0, a, len), 0);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_int_equal(ncp_open(cl, "BIG.BIN", NCP_OPEN_READ, &fh), 0);
	assert_int_equal(ncp_read(cl, &fh, 0, back, len, &got), 0);
	assert_int_equal(got, len);
	assert_memory_equal(back, a, len);
	assert_int_equal(ncp_close(cl, &fh), 0);
	assert_true(ncp_client_stats(cl)->retransmits > 100);
	assert_true(ncp_server_stats(r->srv)->repeats > 50);
	/* The host file is the same bytes. */
	snprintf(path, sizeof(path), "%s/BIG.BIN", r->sys);
	fp = fopen(path, "rb");
	assert_non_null(fp);
	host = malloc(len + 1);
	assert_int_equal(fread(host, 1, len + 1, fp), len);
	fclose(fp);
	assert_memory_equal(host, a, len);
	ipx_mem_segment_set_faults(r->net->seg[0], &(struct ipx_mem_faults){ 0 });
	free(host);
	free(a);
	free(back);
	ncp_client_free(cl);
}

/* ---- locks, 0x9999, watchdog ---- */

static size_t lock_req(uint8_t *req, uint8_t flag, const uint8_t *h,
		       uint32_t start, uint32_t len, uint16_t timeout)
{
	req[0] = flag;
	memcpy(req + 1, h, 6);
	ipx_put32(req + 7, start);
	ipx_put32(req + 11, len);
	ipx_put16(req + 15, timeout);
	return 17;
}

static void test_locks_two_connections(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *a = ncprig_login(r, "GUEST", "");
	struct rawconn *b = rawconn_open(r, true);
	struct ncp_fh fa;
	uint8_t hb[6], req[64], data[8] = "abcdefg";
	const uint8_t *rep;
	size_t l;
	unsigned before;

	assert_int_equal(ncp_open(a, "SHARED.DAT", NCP_OPEN_CREATE, &fa), 0);
	assert_int_equal(ncp_write(a, &fa, 0, "0123456789", 10), 0);
	rep = rawconn_open_file(r, b, "SHARED.DAT", hb);
	assert_int_equal(rep[6], 0);
	/* A locks 0..99 exclusively. */
	assert_int_equal(ncp_lock_record(a, &fa, NCP_LOCK_EXCL, 0, 100, 0), 0);
	assert_int_equal(ncp_server_lock_count(r->srv), 1);
	/* B: fails at once with timeout 0; reading and writing refused. */
	rep = rawconn_call(r, b, 0x1A, req, lock_req(req, 1, hb, 50, 10, 0), &l);
	assert_int_equal(rep[6], NCP_CC_FAILURE);
	memset(req, 0, sizeof(req));
	memcpy(req + 1, hb, 6);
	ipx_put32(req + 7, 0);
	ipx_put16(req + 11, 4);
	rep = rawconn_call(r, b, 0x48, req, 13, &l);
	assert_int_equal(rep[6], NCP_CC_REGION_LOCKED);
	/* Outside the range: fine. */
	ipx_put32(req + 7, 200);
	ipx_put16(req + 11, 4);
	memcpy(req + 13, data, 4);
	rep = rawconn_call(r, b, 0x49, req, 17, &l);
	assert_int_equal(rep[6], 0);
	/* B waits (2 s): no reply; a repeat gets 0x9999; then A clears. */
	rawconn_send(r, b, 0x1A, req, lock_req(req, 1, hb, 50, 10, 36));
	assert_int_equal(rawconn_replies(r, b, IPX_SEC), 0);
	rep = rawconn_resend(r, b, &l);
	assert_int_equal(ipx_get16(rep), NCP_TYPE_BUSY);
	assert_int_equal(ncp_server_stats(r->srv)->busy, 1);
	before = b->count;
	assert_int_equal(ncp_clear_record(a, &fa, 0, 100), 0);
	ncprig_run(r, 100 * IPX_MSEC);
	assert_int_equal(b->count, before + 1);	/* granted now */
	rep = rawconn_last(b, &l);
	assert_int_equal(ipx_get16(rep), NCP_TYPE_REPLY);
	assert_int_equal(rep[6], 0);
	/* Now A conflicts with B: A times out (FE) after its 1 s. */
	assert_int_equal(ncp_lock_record(a, &fa, NCP_LOCK_EXCL, 55, 1, 18),
			 NCP_CC_TIMEOUT);
	/* It retransmitted, got 0x9999 and waited instead of giving up. */
	assert_true(ncp_client_stats(a)->busy >= 1);
	/* Shareable against exclusive conflicts too; disjoint is fine. */
	assert_int_equal(ncp_lock_record(a, &fa, NCP_LOCK_SHARED, 59, 2, 0),
			 NCP_CC_FAILURE);
	assert_int_equal(ncp_lock_record(a, &fa, NCP_LOCK_EXCL, 60, 5, 0), 0);
	/* B ends its job: its locks and files go, A's waiting is over. */
	rep = rawconn_call(r, b, 0x18, NULL, 0, &l);
	assert_int_equal(rep[6], 0);
	assert_int_equal(ncp_lock_record(a, &fa, NCP_LOCK_EXCL, 50, 10, 0), 0);
	assert_int_equal(ncp_close(a, &fa), 0);
	assert_int_equal(ncp_server_lock_count(r->srv), 0);
	rawconn_close(b);
	ncp_client_free(a);
}

static void test_watchdog(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client *a = ncprig_login(r, "GUEST", "");
	struct rawconn *b = rawconn_open(r, true);
	struct ncp_fh fa;
	uint8_t hb[6], req[64];
	const uint8_t *rep;
	size_t l;
	const struct ncp_server_stats *s = ncp_server_stats(r->srv);

	assert_int_equal(ncp_open(a, "W.DAT", NCP_OPEN_CREATE, &fa), 0);
	rep = rawconn_open_file(r, b, "W.DAT", hb);
	assert_int_equal(rep[6], 0);
	rep = rawconn_call(r, b, 0x1A, req, lock_req(req, 1, hb, 0, 10, 0), &l);
	assert_int_equal(rep[6], 0);
	assert_int_equal(ncp_server_connections(r->srv), 2);
	/* Just before the first poll (296.6 s) nothing is sent. */
	ncprig_run(r, 295 * IPX_SEC);
	assert_int_equal(s->wdog_sent, 0);
	/* B never answers (no socket + 1); A's client does. After the 10th
	 * unanswered poll, 59.3 s apart, B is cleared with its lock. */
	ncprig_run(r, 2 * IPX_SEC);
	assert_int_equal(s->wdog_sent, 2);
	ncprig_run(r, 9 * 59300 * IPX_MSEC - 2 * IPX_SEC);
	assert_int_equal(ncp_server_connections(r->srv), 2);
	assert_int_equal(ncp_server_lock_count(r->srv), 1);
	/* The 10th poll went out at 830.3 s; B is kept until the poll
	 * after it would be due (889.6 s), not cleared after 9 or 10. */
	ncprig_run(r, 60 * IPX_SEC);	/* 888.7 s */
	assert_int_equal(ncp_server_connections(r->srv), 2);
	assert_int_equal(s->wdog_cleared, 0);
	ncprig_run(r, 5 * IPX_SEC);
	assert_int_equal(s->wdog_cleared, 1);
	assert_int_equal(ncp_server_connections(r->srv), 1);
	assert_int_equal(ncp_server_lock_count(r->srv), 0);
	assert_int_equal(ncp_server_open_files(r->srv), 1);	/* A's */
	assert_true(ncp_client_stats(a)->wdog_answered >= 1);
	assert_true(s->wdog_answers >= 1);
	/* A still works and can lock what B held. */
	assert_int_equal(ncp_lock_record(a, &fa, NCP_LOCK_EXCL, 0, 10, 0), 0);
	/* B's requests now meet status 01 (bad connection). */
	rep = rawconn_call(r, b, 0x13, NULL, 0, &l);
	assert_int_equal(rep[7], NCP_STATUS_BAD_CONN);
	assert_int_equal(s->bad_conn, 1);
	rawconn_close(b);
	ncp_client_free(a);
}

/* ---- the connection table ---- */

static void test_table_full(void **state)
{
	struct ncprig *r;
	struct ncp_server_opts o;
	struct rawconn *c[3];
	struct ncp_client *cl;
	struct ipx_addr a;

	(void)state;
	ncprig_default_opts(&o);
	o.max_connections = 2;
	r = ncprig_new(&o);
	c[0] = rawconn_open(r, false);
	c[1] = rawconn_open(r, false);
	assert_int_equal(ncp_server_connections(r->srv), 2);
	assert_int_equal(ncp_client_new(r->cli->node, NULL, &cl), IPX_OK);
	ncprig_server_addr(r, &a);
	assert_int_equal(ncp_connect(cl, &a), NCP_CC_NO_SLOTS);
	assert_int_equal(ncp_server_stats(r->srv)->full, 1);
	/* A destroyed connection frees its slot. */
	c[2] = c[1];
	rawconn_destroy(r, c[1]);
	assert_int_equal(ncp_server_connections(r->srv), 1);
	assert_int_equal(ncp_connect(cl, &a), 0);
	ncp_client_free(cl);
	rawconn_close(c[0]);
	rawconn_close(c[2]);
	ncprig_free(r);
}

/* --max-buffer: a server behind a 576-byte bridge grants 512 bytes by
 * either negotiation, and reads then come in 512-byte requests. */
static void test_max_buffer_caps_both(void **state)
{
	struct ncprig *r;
	struct ncp_server_opts o;
	struct ncp_client *cl;
	struct ipx_addr a;
	uint8_t rep[8];
	size_t rl;

	(void)state;
	ncprig_default_opts(&o);
	o.max_buffer = 512;
	r = ncprig_new(&o);
	assert_int_equal(ncp_client_new(r->cli->node, NULL, &cl), IPX_OK);
	ncprig_server_addr(r, &a);
	assert_int_equal(ncp_connect(cl, &a), 0);
	assert_int_equal(ncp_request(cl, 0x61, "\x10\x00\x00", 3, rep,
				     sizeof(rep), &rl), 0);
	assert_int_equal(ipx_get16(rep), 512);
	assert_int_equal(ncp_request(cl, 0x21, "\x10\x00", 2, rep,
				     sizeof(rep), &rl), 0);
	assert_int_equal(ipx_get16(rep), 512);
	assert_int_equal(ncp_negotiate(cl, 4096), 0);
	assert_int_equal(ncp_bufsize(cl), 512);
	ncp_client_free(cl);
	ncprig_free(r);
}

/* A server that stops answering: the client gives up after IPX RETRY
 * COUNT retransmissions, with the named error. */
static void test_client_timeout(void **state)
{
	struct ncprig *r = *state;
	struct ncp_client_opts co = { .retries = 3 };
	struct ncp_client *cl;
	struct ipx_addr a;
	ipx_time t0;

	assert_int_equal(ncp_client_new(r->cli->node, &co, &cl), IPX_OK);
	ncprig_server_addr(r, &a);
	assert_int_equal(ncp_connect(cl, &a), 0);
	ncp_server_free(r->srv);
	r->srv = NULL;
	t0 = ipx_loop_now(r->net->loop);
	assert_int_equal(ncp_request(cl, 0x13, NULL, 0, NULL, 0, NULL),
			 NCP_E_TIMEOUT);
	/* 100 + 200 + 400 + 800 ms. */
	assert_int_equal(ipx_loop_now(r->net->loop) - t0, 1500 * IPX_MSEC);
	assert_int_equal(ncp_client_stats(cl)->retransmits, 3);
	ncp_client_free(cl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_codec),
		cmocka_unit_test_setup_teardown(test_find_login_info, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_files, setup, teardown),
		cmocka_unit_test_setup_teardown(test_more_functions, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_repeat_exactly_once, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_megabyte_lossy, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_locks_two_connections,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_watchdog, setup, teardown),
		cmocka_unit_test(test_table_full),
		cmocka_unit_test(test_max_buffer_caps_both),
		cmocka_unit_test_setup_teardown(test_client_timeout, setup,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
