/*
 * cmd_netbios_dgram.c - "ipxlab netbios send" (each line of stdin a
 * datagram) and "ipxlab netbios recv".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_netbios.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

/* ---- datagrams ---- */

/* Standard input cut into lines, one datagram each. */
static struct {
	struct job *j;
	size_t len;		/* bytes of the line so far */
	unsigned long line;
	int ret;
} ls;

static void send_line(void)
{
	uint8_t rc;

	ls.line++;
	if (ls.len > NB_MAX_DATAGRAM) {
		/* A line too long is refused, never cut. */
		cli_error("netbios", "line %lu has %zu bytes: more than a "
				     "datagram carries (%d); not sent",
			  ls.line, ls.len, NB_MAX_DATAGRAM);
		ls.ret = CLI_FAIL;
	} else {
		ls.j->ncb.length = (uint16_t)ls.len;
		rc = nb_submit(nt.nb, &ls.j->ncb);
		if (rc != NB_RC_OK) {
			nbc_fail("send datagram to",
				nt.o.bcast ? NULL : ls.j->ncb.callname, rc);
			ls.ret = CLI_FAIL;
		}
	}
	ls.len = 0;
}

static void feed_lines(void *ctx, const char *p, size_t n)
{
	(void)ctx;
	for (size_t i = 0; i < n; i++) {
		if (p[i] == '\n') {
			send_line();
			continue;
		}
		if (ls.len < NB_MAX_DATAGRAM)
			ls.j->buf[ls.len] = (uint8_t)p[i];
		ls.len++;
	}
}

int nbc_send(const char *name)
{
	uint8_t own[NB_NAME_LEN];

	memset(&ls, 0, sizeof(ls));
	ls.j = nbc_job_new(nt.o.bcast ? NB_SEND_BCAST_DATAGRAM : NB_SEND_DATAGRAM);
	ls.ret = CLI_OK;
	if (name && nbc_parse_name("name", name, false, ls.j->ncb.callname) < 0) {
		return CLI_USAGE;
	}
	if (nbc_own_name(&ls.j->ncb.num, own) < 0) {
		return CLI_FAIL;
	}
	cli_stdin_lines(nt.cn.loop, feed_lines, NULL);
	if (ls.len)
		send_line();	/* a last line without a newline */
	ipx_loop_run_for(nt.cn.loop, 50 * IPX_MSEC);
	return ls.ret;
}

static void on_datagram(struct nb_ncb *ncb)
{
	char n[NB_NAME_STRLEN];

	IF_EXITING_RETURN();
	if (ncb->retcode != NB_RC_OK && ncb->retcode != NB_RC_INCOMPLETE) {
		nbc_fail("receive datagram", NULL, ncb->retcode);
		nt.result = CLI_FAIL;
		ipx_loop_stop(nt.cn.loop);
		return;
	}
	printf("%s%s ", nb_name_format(ncb->callname, n),
	       ncb->command == NB_RECEIVE_BCAST_DATAGRAM ? " [broadcast]" : "");
	if (nt.o.hex)
		for (size_t i = 0; i < ncb->length; i++)
			printf("%02X", ncb->buffer[i]);
	else
		cli_print_escaped(stdout, ncb->buffer, ncb->length);
	if (ncb->retcode == NB_RC_INCOMPLETE)
		printf(" [cut]");
	putchar('\n');
	nt.got++;
	if (fflush(stdout) == EOF || ferror(stdout)) {
		nt.out_closed = true;
		ipx_loop_stop(nt.cn.loop);
		return;
	}
	if (nt.o.count && nt.got >= nt.o.count) {
		ipx_loop_stop(nt.cn.loop);
		return;
	}
	ncb->length = NB_MAX_DATAGRAM;
	if (nb_submit(nt.nb, ncb) != NB_RC_PENDING) {
		nbc_fail("receive datagram", NULL, ncb->retcode);
		nt.result = CLI_FAIL;
		ipx_loop_stop(nt.cn.loop);
	}
}

int nbc_recv(const char *name)
{
	struct job *j[RECEIVES + 1];
	unsigned nj = 0;
	uint8_t num = 0xFF;
	char n[NB_NAME_STRLEN], a[IPX_ADDR_STRLEN];
	uint8_t bin[NB_NAME_LEN];
	bool no = false;
	int rc;

	if (name) {
		if (nbc_parse_name("name", name, false, bin) < 0)
			return CLI_USAGE;
		if (nbc_claim(&name, &no, 1, &num) < 0)
			return CLI_FAIL;
	}
	for (int kind = 0; kind < 2; kind++) {
		if ((kind == 0 && !name) || (kind == 1 && !nt.o.bcast))
			continue;
		/* A broadcast datagram completes every RECEIVE BROADCAST
		 * DATAGRAM pending: one is enough. Directed ones take one
		 * each, so a few wait for bursts. */
		for (int i = 0; i < (kind ? 1 : RECEIVES); i++, nj++) {
			j[nj] = nbc_job_new(kind ? NB_RECEIVE_BCAST_DATAGRAM
					     : NB_RECEIVE_DATAGRAM);
			j[nj]->ncb.num = num;
			j[nj]->ncb.length = NB_MAX_DATAGRAM;
			j[nj]->ncb.post = on_datagram;
			if (nb_submit(nt.nb, &j[nj]->ncb) != NB_RC_PENDING) {
				nbc_fail("receive datagram", NULL,
					j[nj]->ncb.retcode);
				return CLI_FAIL;
			}
		}
	}
	nt.cn.addr.socket = IPX_SOCK_NETBIOS;
	fprintf(stderr, "receiving%s%s%s on %s\n", name ? " for " : "",
		name ? nb_name_format(bin, n) : "",
		nt.o.bcast ? (name ? " and broadcast" : " broadcast") : "",
		ipx_addr_format(&nt.cn.addr, a));
	nt.result = CLI_OK;
	rc = ipx_loop_run_until(nt.cn.loop, nbc_never, NULL,
				nt.o.timeout > 0
					? (ipx_time)(nt.o.timeout * IPX_SEC)
					: UINT64_MAX / 4);
	if (nt.out_closed)
		return CLI_OK;
	if (nt.result != CLI_OK)
		return nt.result;
	if (rc != IPX_OK && rc != IPX_ECLOSED && rc != IPX_ETIMEOUT)
		return CLI_FAIL;
	return cli_count_result("netbios", nt.got, nt.o.count,
				rc == IPX_ECLOSED);
}
