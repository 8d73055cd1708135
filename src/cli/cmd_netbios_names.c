/*
 * cmd_netbios_names.c - the NCBs of "ipxlab netbios" (jobs, alive until
 * the end) and its name actions: add, find, status.
 */
#include <stdlib.h>
#include <string.h>

#include "cmd_netbios.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"

static void job_post(struct nb_ncb *ncb)
{
	((struct job *)ncb->ctx)->done = true;
}

/*
 * An NCB must stay alive until it completes, and one that is still
 * pending when the tool stops is only let go by nb_close(): so every job
 * lives until then (freed at the very end), whatever happened.
 */
struct job *nbc_job_new(uint8_t command)
{
	struct job *j = nt.njobs < MAX_JOBS ? calloc(1, sizeof(*j)) : NULL;

	if (!j) {
		cli_error("netbios", "out of memory");
		exit(CLI_FAIL);
	}
	nt.jobs[nt.njobs++] = j;
	j->ncb.command = command;
	j->ncb.buffer = j->buf;
	j->ncb.length = sizeof(j->buf);
	j->ncb.post = job_post;
	j->ncb.ctx = j;
	return j;
}

bool nbc_job_done(void *ctx)
{
	return ((struct job *)ctx)->done;
}

/* Submit and wait. IPX_ECLOSED when interrupted (Ctrl-C). */
static int job_run(struct job *j, uint8_t *rc)
{
	j->done = false;
	*rc = nb_submit(nt.nb, &j->ncb);
	if (*rc != NB_RC_PENDING)
		return IPX_OK;
	if (ipx_loop_run_until(nt.cn.loop, nbc_job_done, j, UINT64_MAX / 4) !=
	    IPX_OK)
		return IPX_ECLOSED;
	*rc = j->ncb.retcode;
	return IPX_OK;
}

void nbc_fail(const char *what, const uint8_t *name, uint8_t rc)
{
	char n[NB_NAME_STRLEN];

	if (name)
		cli_error("netbios", "%s %s: %s (0x%02X)", what,
			  nb_name_format(name, n), nb_strerror(rc), rc);
	else
		cli_error("netbios", "%s: %s (0x%02X)", what, nb_strerror(rc),
			  rc);
}

int nbc_parse_name(const char *what, const char *text, bool star,
		   uint8_t out[NB_NAME_LEN])
{
	if (nb_name_parse(text, star, out) == IPX_OK)
		return 0;
	cli_error("netbios", "%s '%s' is not a NetBIOS name (up to 15 "
			     "characters and <XX>, or 16; not starting with "
			     "'*' or \\x00)",
		  what, text);
	return -1;
}

/* ---- names ---- */

/* Claim names at once (in parallel). Returns 0, or -1 after a message
 * (names that were claimed stay: nb_close forgets them). */
int nbc_claim(const char *const *names, const bool *group, unsigned n,
	      uint8_t *nums)
{
	struct job *j[MAX_NAMES * 2];
	int ok = 0;

	for (unsigned i = 0; i < n; i++) {
		j[i] = nbc_job_new(group[i] ? NB_ADD_GROUP_NAME : NB_ADD_NAME);
		if (nbc_parse_name("name", names[i], false, j[i]->ncb.name) < 0)
			return -1;
	}
	for (unsigned i = 0; i < n; i++) {
		uint8_t rc = nb_submit(nt.nb, &j[i]->ncb);

		j[i]->done = rc != NB_RC_PENDING;
	}
	for (unsigned i = 0; i < n && ok == 0; i++) {
		if (!j[i]->done &&
		    ipx_loop_run_until(nt.cn.loop, nbc_job_done, j[i],
				       UINT64_MAX / 4) != IPX_OK) {
			cli_error("netbios", "interrupted while claiming");
			ok = -1;
		}
	}
	for (unsigned i = 0; i < n; i++) {
		if (j[i]->ncb.retcode == NB_RC_OK &&
		    nt.nclaimed < MAX_NAMES * 2)
			memcpy(nt.claimed[nt.nclaimed++], j[i]->ncb.name,
			       NB_NAME_LEN);
		if (ok == 0 && j[i]->ncb.retcode != NB_RC_OK) {
			nbc_fail("add", j[i]->ncb.name, j[i]->ncb.retcode);
			ok = -1;
		}
		if (nums)
			nums[i] = j[i]->ncb.num;
	}
	return ok;
}

static const char *state_text(uint8_t flags)
{
	switch (flags & ~NB_NF_GROUP) {
	case NB_NAME_REGISTERING:
		return "registering";
	case NB_NAME_REGISTERED:
		return "registered";
	case NB_NAME_DEREGISTERED:
		return "deregistered";
	default:
		return "?";
	}
}

static void print_status(const uint8_t *buf, size_t len, bool counters)
{
	static struct nb_adapter_status st;
	char node[13], n[NB_NAME_STRLEN];

	if (nb_adapter_status_decode(buf, len, &st) != IPX_OK) {
		cli_error("netbios", "the status is too short (%zu bytes)", len);
		return;
	}
	printf("node %s, %u name%s\n", ipx_node_format(st.node, node),
	       st.name_count, st.name_count == 1 ? "" : "s");
	for (unsigned i = 0; i < st.names_present; i++)
		printf("  %3u  %-22s %-7s %s\n", st.names[i].num,
		       nb_name_format(st.names[i].name, n),
		       st.names[i].flags & NB_NF_GROUP ? "group" : "unique",
		       state_text(st.names[i].flags));
	if (st.names_present < st.name_count)
		printf("  (%u more did not fit)\n",
		       st.name_count - st.names_present);
	if (counters)
		printf("up %u min; packets sent %u, received %u, resent %u; "
		       "sessions %u of %u; commands free %u of %u; largest "
		       "datagram %u, session packet %u\n",
		       st.duration_min, st.xmit, st.recv, st.retransmits,
		       st.sessions, st.max_sessions, st.free_ncbs, st.max_ncbs,
		       st.max_dgram, st.max_sess_pkt);
}

/* The local table, as ADAPTER STATUS '*' gives it. */
static void print_table(void)
{
	struct job *j = nbc_job_new(NB_ADAPTER_STATUS);
	uint8_t rc;

	j->ncb.callname[0] = '*';
	if (job_run(j, &rc) == IPX_OK && rc == NB_RC_OK)
		print_status(j->buf, j->ncb.length, false);
	fflush(stdout);
}

bool nbc_never(void *ctx)
{
	(void)ctx;
	return false;
}

int nbc_add(char **names, int n)
{
	const char *all[MAX_NAMES * 2];
	bool group[MAX_NAMES * 2];
	unsigned k = 0;
	int rc;

	for (int i = 0; i < n && k < MAX_NAMES; i++, k++) {
		all[k] = names[i];
		group[k] = false;
	}
	for (unsigned i = 0; i < nt.o.ngroup; i++, k++) {
		all[k] = nt.o.group[i];
		group[k] = true;
	}
	if (nbc_claim(all, group, k, NULL) < 0)
		return CLI_FAIL;
	print_table();
	fprintf(stderr, "holding %u name%s%s\n", k, k == 1 ? "" : "s",
		nt.o.timeout > 0 ? "" : " until interrupted");
	rc = ipx_loop_run_until(nt.cn.loop, nbc_never, NULL,
				nt.o.timeout > 0
					? (ipx_time)(nt.o.timeout * IPX_SEC)
					: UINT64_MAX / 4);
	return rc == IPX_ETIMEOUT || rc == IPX_ECLOSED ? CLI_OK : CLI_FAIL;
}

int nbc_find(const char *name)
{
	struct job *j = nbc_job_new(NB_FIND_NAME);
	struct ipx_addr a;
	char s[IPX_ADDR_STRLEN];
	uint8_t rc;
	unsigned n;

	if (nbc_parse_name("name", name, false, j->ncb.callname) < 0) {
		return CLI_USAGE;
	}
	if (job_run(j, &rc) != IPX_OK) {
		return CLI_FAIL;
	}
	if (rc != NB_RC_OK && rc != NB_RC_INCOMPLETE) {
		nbc_fail("find", j->ncb.callname, rc);
		return CLI_FAIL;
	}
	n = ipx_get16le(j->buf);
	for (unsigned i = 0; i < n; i++) {
		ipx_addr_read(j->buf + NB_FN_HDR_LEN + i * NB_FN_ENTRY_LEN, &a);
		printf("%s %s\n", ipx_addr_format(&a, s),
		       j->buf[3] ? "group" : "unique");
	}
	return CLI_OK;
}

int nbc_status(const char *name)
{
	struct job *j = nbc_job_new(NB_ADAPTER_STATUS);
	uint8_t rc;
	int ret = CLI_OK;

	if (!name)
		j->ncb.callname[0] = '*';
	else if (nbc_parse_name("name", name, false, j->ncb.callname) < 0)
		ret = CLI_USAGE;
	if (ret == CLI_OK && job_run(j, &rc) != IPX_OK)
		ret = CLI_FAIL;
	if (ret == CLI_OK && rc != NB_RC_OK && rc != NB_RC_INCOMPLETE) {
		nbc_fail("status of", j->ncb.callname, rc);
		ret = CLI_FAIL;
	}
	if (ret == CLI_OK)
		print_status(j->buf, j->ncb.length, true);
	return ret;
}

/* Our name number: --as NAME (claimed now), else the permanent name. */
int nbc_own_name(uint8_t *num, uint8_t name[NB_NAME_LEN])
{
	struct ipx_addr me;
	bool no = false;

	if (nt.o.as) {
		if (nbc_claim(&nt.o.as, &no, 1, num) < 0)
			return -1;
		nb_name_parse(nt.o.as, false, name);
		return 0;
	}
	*num = 1;
	ipx_node_address(nt.cn.node, &me);
	nb_permanent_name(me.node, name);
	return 0;
}
