/*
 * burst_capture.c - writes a pcap of NCP packet burst for the tshark
 * interop test (tshark_ncp_test.sh): ipxlab's server and client on the
 * in-memory link with loss, duplication and reordering, so the capture
 * holds 0x65, burst writes and reads, missing-fragment lists (both ways)
 * and the fragments resent for them; then the same with a server that
 * refuses burst (0xFB) and the client's fallback. The files are checked
 * intact. Usage: burst_capture FILE.pcap
 */
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ipxlab/err.h"
#include "ipxlab/link_mem.h"
#include "ipxlab/log.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/ncp_server.h"
#include "ipxlab/priv/pcap.h"

#define LEN 300000

static struct ipx_loop *loop;
static struct ipx_pcap *pc;

static void tap(const uint8_t *pkt, size_t len, const uint8_t from[6],
		const uint8_t to[6], void *ctx)
{
	(void)ctx;
	ipx_pcap_write(pc, ipx_loop_now(loop), to, from, pkt, len);
}

static int rm_one(const char *p, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(p);
}

/* A put and a get of LEN bytes through a server with or without burst;
 * 0 if the data came back whole and burst was used as expected. */
static int session(struct ipx_node *sn, struct ipx_node *cn, const char *dir,
		   bool refuse, const uint8_t *data, uint8_t *back)
{
	struct ncp_server_opts so = { .name = "BURSTCAP", .no_burst = refuse };
	struct ncp_server *srv;
	struct ncp_client *cl;
	struct ipx_addr a;
	struct ncp_fh fh;
	char err[256];
	size_t got = 0;
	int rc;

	snprintf(so.volumes[0].name, sizeof(so.volumes[0].name), "SYS");
	snprintf(so.volumes[0].dir, sizeof(so.volumes[0].dir), "%s", dir);
	so.nvolumes = 1;
	if (ncp_server_new(sn, &so, &srv, err, sizeof(err)) != IPX_OK) {
		fprintf(stderr, "burst_capture: server: %s\n", err);
		return 1;
	}
	ipx_loop_run_for(loop, IPX_SEC);
	ipx_node_address(sn, &a);
	a.socket = 0x451;
	if (ncp_client_new(cn, NULL, &cl) != IPX_OK)
		return 1;
	rc = ncp_connect(cl, &a);
	if (!rc)
		rc = ncp_login(cl, "GUEST", "");
	if (!rc)
		rc = ncp_negotiate(cl, 4096);
	if (!rc)
		rc = ncp_open(cl, "B.DAT", NCP_OPEN_CREATE, &fh);
	if (!rc)
		rc = ncp_write(cl, &fh, 0, data, LEN);
	if (!rc)
		rc = ncp_read(cl, &fh, 0, back, LEN, &got);
	if (!rc)
		rc = ncp_close(cl, &fh);
	if (rc || got != LEN || memcmp(back, data, LEN) ||
	    ncp_burst_active(cl) == refuse) {
		fprintf(stderr, "burst_capture: %s (%zu bytes back)\n",
			ncp_strerror(rc), got);
		return 1;
	}
	ncp_client_free(cl);
	ipx_loop_run_for(loop, IPX_SEC);
	ncp_server_free(srv);
	return 0;
}

int main(int argc, char **argv)
{
	struct ipx_clock clk;
	struct ipx_mem_segment *seg;
	struct ipx_node *sn, *cn;
	struct ipx_mem_faults lossy = { .loss_ppm = 30000, .dup_ppm = 20000,
					.reorder_ppm = 20000,
					.reorder_delay = 2 * IPX_MSEC,
					.delay = IPX_MSEC };
	char dir[] = "/tmp/ipxlab-burstcap.XXXXXX", err[256];
	uint8_t *data = malloc(LEN), *back = malloc(LEN);
	int rc;

	if (argc != 2) {
		fprintf(stderr, "usage: burst_capture FILE.pcap\n");
		return 2;
	}
	if (!data || !back || !mkdtemp(dir))
		return 1;
	for (size_t i = 0; i < LEN; i++)
		data[i] = (uint8_t)((i * 2654435761u) >> 11);
	if (ipx_pcap_open(argv[1], &pc, err, sizeof(err)) != IPX_OK) {
		fprintf(stderr, "burst_capture: %s\n", err);
		return 1;
	}
	ipx_log_set_level(IPX_LOG_WARN);
	ipx_clock_fake_init(&clk, 1700000000ull * IPX_SEC);
	loop = ipx_loop_new(&clk);
	seg = ipx_mem_segment_new(loop, 0x00001234, 11);
	ipx_mem_segment_set_tap(seg, tap, NULL);
	sn = ipx_node_new(loop, NULL);
	cn = ipx_node_new(loop, NULL);
	ipx_node_add_link(sn, ipx_mem_link_new(seg, NULL));
	ipx_node_add_link(cn, ipx_mem_link_new(seg, NULL));
	ipx_mem_segment_set_faults(seg, &lossy);
	rc = session(sn, cn, dir, false, data, back);
	if (!rc)
		rc = session(sn, cn, dir, true, data, back);
	ipx_pcap_close(pc);
	nftw(dir, rm_one, 8, FTW_DEPTH | FTW_PHYS);
	free(data);
	free(back);
	return rc;
}
