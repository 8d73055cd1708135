/*
 * ns_capture.c - writes a pcap of the name-space calls (NCP 0x57) for the
 * tshark interop test: a file server and a client on the in-memory link,
 * logged in as GUEST, sending each 0x57 call the server answers (name
 * spaces loaded, the volume lookup, obtain info, open/create of a long
 * name and a directory, initialize search, search, search for a set,
 * rename, modify DOS information, short directory handle, full path
 * string, effective rights, delete) and two refusals (a name space not
 * loaded, a name not of the DOS name space). Usage: ns_capture FILE.pcap
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/ncp_server.h"
#include "ipxlab/priv/pcap.h"

static struct ipx_loop *loop;
static struct ipx_pcap *pc;

static void tap(const uint8_t *pkt, size_t len, const uint8_t from[6],
		const uint8_t to[6], void *ctx)
{
	(void)ctx;
	ipx_pcap_write(pc, ipx_loop_now(loop), to, from, pkt, len);
}

struct req {
	uint8_t b[600];
	size_t n;
};

static void u8(struct req *q, uint8_t v) { q->b[q->n++] = v; }
static void le16(struct req *q, uint16_t v)
{
	ipx_put16le(q->b + q->n, v);
	q->n += 2;
}
static void le32(struct req *q, uint32_t v)
{
	le16(q, (uint16_t)v);
	le16(q, (uint16_t)(v >> 16));
}
static void str(struct req *q, const char *s)
{
	size_t n = strlen(s);

	u8(q, (uint8_t)n);
	memcpy(q->b + q->n, s, n);
	q->n += n;
}

/* A handle path: style 0xFF, the volume SYS, then the names. */
static void path(struct req *q, int n, const char *const *c)
{
	u8(q, 0);
	le32(q, 0);
	u8(q, 0xFF);
	u8(q, (uint8_t)(n + 1));
	str(q, "SYS");
	for (int i = 0; i < n; i++)
		str(q, c[i]);
}

static uint8_t rep[1500];
static size_t rl;

/* Send one 0x57 request; want: its expected completion code. */
static int call(struct ncp_client *cl, const struct req *q, int want)
{
	int rc = ncp_request(cl, 0x57, q->b, q->n, rep, sizeof(rep), &rl);

	if (rc != want) {
		fprintf(stderr, "ns_capture: 0x57 0x%02X: %s (want %d)\n",
			q->b[0], ncp_strerror(rc), want);
		return -1;
	}
	return 0;
}

static const char *const lng[] = { "Quarterly Report 2026.txt" };

/* Each call, in the order a client makes them. */
static int session(struct ncp_client *cl)
{
	struct req q = { .n = 0 };
	uint8_t seq[9];
	uint32_t base;

	u8(&q, 0x18); le16(&q, 0); u8(&q, 0);
	if (call(cl, &q, 0))
		return -1;
	q.n = 0;
	u8(&q, 0x16); u8(&q, 0); u8(&q, 0); u8(&q, 0); u8(&q, 0);
	path(&q, 0, NULL);
	if (call(cl, &q, 0))
		return -1;
	base = ipx_get16le(rep) | (uint32_t)ipx_get16le(rep + 2) << 16;
	q.n = 0;
	u8(&q, 0x01); u8(&q, 4); u8(&q, 0x0B); le16(&q, 0x8006);
	le32(&q, 0x0FFF); le32(&q, 0); le16(&q, 3);
	path(&q, 1, lng);
	if (call(cl, &q, 0))
		return -1;
	/* Close it (0x42, the 6-byte handle: 00 00 and the 4 returned). */
	{
		uint8_t h[7] = { 0, 0, 0 };

		memcpy(h + 3, rep, 4);
		if (ncp_request(cl, 0x42, h, sizeof(h), NULL, 0, NULL))
			return -1;
	}
	q.n = 0;
	u8(&q, 0x01); u8(&q, 4); u8(&q, 0x08); le16(&q, 0x8006);
	le32(&q, 0x0FFF); le32(&q, 0x10); le16(&q, 0xFF);
	path(&q, 1, (const char *const[]){ "My Documents" });
	if (call(cl, &q, 0))
		return -1;
	q.n = 0;
	u8(&q, 0x06); u8(&q, 0); u8(&q, 4); le16(&q, 0x8006);
	le32(&q, 0x0FFF);
	u8(&q, 0); le32(&q, base); u8(&q, 1); u8(&q, 0);
	if (call(cl, &q, 0))
		return -1;
	q.n = 0;
	u8(&q, 0x02); u8(&q, 4); u8(&q, 0);
	path(&q, 0, NULL);
	if (call(cl, &q, 0))
		return -1;
	memcpy(seq, rep, 9);
	q.n = 0;
	u8(&q, 0x03); u8(&q, 4); u8(&q, 0); le16(&q, 0x8006);
	le32(&q, 0x0FFF);
	memcpy(q.b + q.n, seq, 9);
	q.n += 9;
	str(&q, "\xFF*");
	if (call(cl, &q, 0))
		return -1;
	q.n = 0;
	u8(&q, 0x14); u8(&q, 4); u8(&q, 0); le16(&q, 0x8006);
	le32(&q, 0x0FFF); le16(&q, 100);
	memcpy(q.b + q.n, seq, 9);
	q.n += 9;
	str(&q, "\xFF*");
	if (call(cl, &q, 0))
		return -1;
	q.n = 0;
	u8(&q, 0x04); u8(&q, 4); u8(&q, 1); le16(&q, 0x8006);
	u8(&q, 0); le32(&q, 0); u8(&q, 0xFF); u8(&q, 2);
	u8(&q, 0); le32(&q, 0); u8(&q, 0xFF); u8(&q, 3);
	str(&q, "SYS"); str(&q, lng[0]);
	str(&q, "SYS"); str(&q, "My Documents"); str(&q, "Annual Report.txt");
	if (call(cl, &q, 0))
		return -1;
	q.n = 0;
	u8(&q, 0x07); u8(&q, 4); u8(&q, 0); le16(&q, 0x8006);
	le32(&q, 0x0302); le32(&q, 0);
	le16(&q, 0); le16(&q, 0); le32(&q, 0);
	le16(&q, (46 << 9) | (1 << 5) | 2); le16(&q, 12 << 11);
	for (int i = 0; i < 22; i++)
		u8(&q, 0);
	path(&q, 2, (const char *const[]){ "My Documents",
					   "Annual Report.txt" });
	if (call(cl, &q, 0))
		return -1;
	q.n = 0;
	u8(&q, 0x0C); u8(&q, 4); u8(&q, 0); le16(&q, 1);
	path(&q, 1, (const char *const[]){ "My Documents" });
	if (call(cl, &q, 0))
		return -1;
	q.n = 0;
	u8(&q, 0x1C); u8(&q, 4); u8(&q, 4); le16(&q, 0);
	le32(&q, 0xFFFFFFFF); le32(&q, 0xFFFFFFFF);
	path(&q, 2, (const char *const[]){ "My Documents",
					   "Annual Report.txt" });
	if (call(cl, &q, 0))
		return -1;
	q.n = 0;
	u8(&q, 0x1D); u8(&q, 4); u8(&q, 4); le16(&q, 0x8006);
	le32(&q, 0x0FFF);
	path(&q, 1, (const char *const[]){ "My Documents" });
	if (call(cl, &q, 0))
		return -1;
	q.n = 0;
	u8(&q, 0x08); u8(&q, 4); u8(&q, 0); le16(&q, 0x8006);
	path(&q, 2, (const char *const[]){ "My Documents",
					   "Annual Report.txt" });
	if (call(cl, &q, 0))
		return -1;
	/* Refusals: NFS (2) is not loaded; a long name in the DOS space. */
	q.n = 0;
	u8(&q, 0x06); u8(&q, 2); u8(&q, 2); le16(&q, 0x8006);
	le32(&q, 0x0FFF);
	path(&q, 0, NULL);
	if (call(cl, &q, NCP_CC_BAD_NAME_SPACE))
		return -1;
	q.n = 0;
	u8(&q, 0x06); u8(&q, 0); u8(&q, 0); le16(&q, 0x8006);
	le32(&q, 0x0FFF);
	path(&q, 1, (const char *const[]){ "My Documents" });
	return call(cl, &q, NCP_CC_BAD_PATH);
}

int main(int argc, char **argv)
{
	struct ipx_clock clk;
	struct ipx_mem_segment *seg;
	struct ipx_node *sn, *cn;
	struct ncp_server_opts so;
	struct ncp_server *srv;
	struct ncp_client *cl;
	struct ipx_addr to;
	char dir[64] = "/tmp/ipxlab-nscap.XXXXXX", err[256], cmd[128];
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: ns_capture FILE.pcap\n");
		return 2;
	}
	if (ipx_pcap_open(argv[1], &pc, err, sizeof(err)) != IPX_OK) {
		fprintf(stderr, "ns_capture: %s\n", err);
		return 1;
	}
	if (!mkdtemp(dir))
		return 1;
	ipx_log_set_level(IPX_LOG_WARN);
	ipx_clock_fake_init(&clk, 1700000000ull * IPX_SEC);
	loop = ipx_loop_new(&clk);
	seg = ipx_mem_segment_new(loop, 0x00001234, 7);
	ipx_mem_segment_set_tap(seg, tap, NULL);
	sn = ipx_node_new(loop, NULL);
	cn = ipx_node_new(loop, NULL);
	ipx_node_add_link(sn, ipx_mem_link_new(seg, NULL));
	ipx_node_add_link(cn, ipx_mem_link_new(seg, NULL));
	memset(&so, 0, sizeof(so));
	so.name = "NSCAP";
	snprintf(so.volumes[0].name, sizeof(so.volumes[0].name), "SYS");
	snprintf(so.volumes[0].dir, sizeof(so.volumes[0].dir), "%s", dir);
	so.nvolumes = 1;
	rc = ncp_server_new(sn, &so, &srv, err, sizeof(err));
	if (rc == IPX_OK)
		rc = ncp_client_new(cn, NULL, &cl);
	if (rc != IPX_OK) {
		fprintf(stderr, "ns_capture: %s\n", rc ? err : "");
		return 1;
	}
	ipx_node_address(sn, &to);
	to.socket = 0x451;
	rc = ncp_connect(cl, &to);
	if (!rc)
		rc = ncp_login(cl, "GUEST", "");
	if (!rc)
		rc = session(cl) ? -1 : 0;
	if (rc > 0)
		fprintf(stderr, "ns_capture: %s\n", ncp_strerror(rc));
	ncp_client_free(cl);
	ncp_server_free(srv);
	ipx_node_free(sn);
	ipx_node_free(cn);
	ipx_mem_segment_free(seg);
	ipx_loop_free(loop);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		rc = -1;
	if (ipx_pcap_close(pc) != IPX_OK)
		rc = -1;
	return rc ? 1 : 0;
}
