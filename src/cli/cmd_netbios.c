/*
 * cmd_netbios.c - "ipxlab netbios ...": NetBIOS over IPX from the shell.
 * Claim names and hold them (add), look names up (find), read a node's
 * name table (status), send and receive datagrams (send, recv), and
 * netcat over a NetBIOS session (listen, call). Every action is an NCB
 * submitted to the library (ipxlab/netbios.h), as a DOS program would.
 * Here: the options and the dispatch; the actions are in
 * cmd_netbios_names.c, _dgram.c and _session.c (see cmd_netbios.h).
 */
#include <errno.h>
#include <getopt.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_netbios.h"
#include "ipxlab/bytes.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/nb_stream.h"
#include "ipxlab/netbios.h"

void help_netbios(FILE *out)
{
	fprintf(out,
		"  add NAME... [-g GROUP]...  claim names, print the name table, and\n"
		"                             hold (defend) them until interrupted\n"
		"  find NAME                  every node that has NAME\n"
		"  status [NAME]              the name table and counters of the node\n"
		"                             holding NAME (default: this one)\n"
		"  send NAME | -b             each line of stdin as a datagram to NAME,\n"
		"                             or broadcast\n"
		"  recv [NAME] [-b]           print the datagrams for NAME (claimed\n"
		"                             first) and/or broadcast ones\n"
		"  listen NAME [--from N]     claim NAME, wait for one call, then carry\n"
		"                             stdin to the peer and its data to stdout\n"
		"  call NAME                  call NAME, then the same\n\n"
		"Names: up to 15 characters and a suffix, NAME or NAME<XX> (hex, default\n"
		"00), or exactly 16 characters; \\xHH for any byte. Our own node is\n"
		"known as '*node XXXXXXXXXXXX' (its permanent name) unless --as NAME.\n\n"
		"  -g, --group NAME    add: also claim NAME as a group name\n"
		"  -b, --broadcast     send: broadcast; recv: broadcast datagrams too\n"
		"      --as NAME       send, call: claim NAME and use it as ours\n"
		"      --from NAME     listen: only calls from NAME\n"
		"  -c, --count N       recv: exit 0 after N datagrams\n"
		"  -t, --timeout S     add: hold the names S seconds; recv: listen\n"
		"                      that long; with -c, exit 1 if the N have not\n"
		"                      all come by then (alone: exit 0);\n"
		"                      listen: exit 1 if no call comes by then\n"
		"  -x, --hex           recv: payloads in hex\n"
		"      --stats         print the NetBIOS counters at the end\n"
		"listen and call: the end of our input is sent as an empty message\n"
		"(NetBIOS has no half-close), and the session is hung up once both\n"
		"ends' data is through, whichever input ends first.\n"
		"Exit status: 0 success (for listen and call: all our input was\n"
		"delivered and all the peer's data written), 1 a failure with its\n"
		"NetBIOS return code or what was cut short, 2 bad usage.\n" CLI_NODE_OPTS_HELP);
}

/* ---- the command ---- */

struct nb_tool nt;

enum { OPT_AS = OPT_FIRST_CMD, OPT_FROM, OPT_STATS };

/* Options of every action; 1 after --help, -1 on a bad one. */
static int parse_opts(int argc, char **argv, struct cli_node_opts *no)
{
	static const struct option longopts[] = {
		{ "group", required_argument, NULL, 'g' },
		{ "broadcast", no_argument, NULL, 'b' },
		{ "as", required_argument, NULL, OPT_AS },
		{ "from", required_argument, NULL, OPT_FROM },
		{ "count", required_argument, NULL, 'c' },
		{ "timeout", required_argument, NULL, 't' },
		{ "hex", no_argument, NULL, 'x' },
		{ "stats", no_argument, NULL, OPT_STATS },
		CLI_NODE_LONGOPTS,
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	cli_node_opts_init(no);
	optind = 1;
	while ((opt = getopt_long(argc, argv, "g:bc:t:xvqh", longopts, NULL)) !=
	       -1) {
		int r = cli_node_opt(no, "netbios", opt, optarg);

		if (r < 0)
			return -1;
		if (r > 0)
			continue;
		switch (opt) {
		case 'g':
			if (nt.o.ngroup == MAX_NAMES) {
				cli_error("netbios", "at most %d group names",
					  MAX_NAMES);
				return -1;
			}
			nt.o.group[nt.o.ngroup++] = optarg;
			break;
		case 'b':
			nt.o.bcast = true;
			break;
		case OPT_AS:
			nt.o.as = optarg;
			break;
		case OPT_FROM:
			nt.o.from = optarg;
			break;
		case 'c':
			if (cli_parse_uint("netbios", "--count", optarg, 1,
					   1000000000, &nt.o.count) < 0)
				return -1;
			break;
		case 't':
			if (cli_parse_seconds("netbios", "--timeout", optarg,
					      0.1, 1e6, &nt.o.timeout) < 0)
				return -1;
			break;
		case 'x':
			nt.o.hex = true;
			break;
		case OPT_STATS:
			nt.o.stats = true;
			break;
		case 'h':
			cli_usage_line(stdout, "netbios");
			help_netbios(stdout);
			return 1;
		default:
			cli_bad_option("netbios", argv, "g:bc:t:xvqh",
				       longopts);
			return -1;
		}
	}
	return 0;
}

/* Names each action takes, at least and at most. */
static const struct {
	const char *name;
	int min, max;
} actions[] = {
	{ "add", 0, MAX_NAMES }, { "find", 1, 1 },   { "status", 0, 1 },
	{ "send", 0, 1 },	 { "recv", 0, 1 },   { "listen", 1, 1 },
	{ "call", 1, 1 },
};

static int check_args(const char *action, char **args, int nargs)
{
	uint8_t n[NB_NAME_LEN];
	size_t i;

	for (i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (!strcmp(actions[i].name, action))
			break;
	if (i == sizeof(actions) / sizeof(actions[0])) {
		cli_error("netbios", "unknown action '%s' (add, find, status, "
				     "send, recv, listen, call)",
			  action);
		return -1;
	}
	if (nargs < actions[i].min || nargs > actions[i].max) {
		cli_error("netbios", "%s takes %d to %d NAME%s", action,
			  actions[i].min, actions[i].max,
			  actions[i].max == 1 ? "" : "s");
		return -1;
	}
	for (int k = 0; k < nargs; k++)
		if (nbc_parse_name("name", args[k], false, n) < 0)
			return -1;
	for (unsigned k = 0; k < nt.o.ngroup; k++)
		if (nbc_parse_name("--group", nt.o.group[k], false, n) < 0)
			return -1;
	if ((nt.o.as && nbc_parse_name("--as", nt.o.as, false, n) < 0) ||
	    (nt.o.from && nbc_parse_name("--from", nt.o.from, true, n) < 0))
		return -1;
	if (!strcmp(action, "add") && nargs == 0 && nt.o.ngroup == 0)
		cli_error("netbios", "add needs a NAME or a --group NAME");
	else if (!strcmp(action, "send") && (nargs == 1) == nt.o.bcast)
		cli_error("netbios", "send takes a NAME or --broadcast (one)");
	else if (!strcmp(action, "recv") && nargs == 0 && !nt.o.bcast)
		cli_error("netbios", "recv takes a NAME, --broadcast, or both");
	else
		return 0;
	return -1;
}

int cmd_netbios(int argc, char **argv)
{
	struct cli_node_opts no;
	const char *action;
	char **args;
	int nargs, rc;

	memset(&nt, 0, sizeof(nt));
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		cli_usage_line(argc < 2 ? stderr : stdout, "netbios");
		help_netbios(argc < 2 ? stderr : stdout);
		return argc < 2 ? CLI_USAGE : CLI_OK;
	}
	action = argv[1];
	argc--;
	argv++;
	rc = parse_opts(argc, argv, &no);
	if (rc)
		return rc > 0 ? CLI_OK : CLI_USAGE;
	args = argv + optind;
	nargs = argc - optind;
	if (check_args(action, args, nargs) < 0)
		return CLI_USAGE;
	rc = cli_node_open(&nt.cn, &no);
	if (rc)
		return rc;
	rc = nb_open(nt.cn.node, NULL, &nt.nb);
	if (rc != IPX_OK) {
		cli_error("netbios", "cannot open socket 0455: %s",
			  ipx_strerror(rc));
		cli_node_close(&nt.cn);
		return CLI_FAIL;
	}
	if (!strcmp(action, "add"))
		rc = nbc_add(args, nargs);
	else if (!strcmp(action, "find"))
		rc = nbc_find(args[0]);
	else if (!strcmp(action, "status"))
		rc = nbc_status(nargs ? args[0] : NULL);
	else if (!strcmp(action, "send"))
		rc = nbc_send(nargs ? args[0] : NULL);
	else if (!strcmp(action, "recv"))
		rc = nbc_recv(nargs ? args[0] : NULL);
	else
		rc = nbc_session(!strcmp(action, "listen"), args[0]);
	/* Give our names back (a deregister broadcast each), so that other
	 * nodes' caches forget them now. */
	nt.exiting = true;
	for (unsigned i = 0; i < nt.nclaimed; i++) {
		struct nb_ncb d = { .command = NB_DELETE_NAME };

		memcpy(d.name, nt.claimed[i], NB_NAME_LEN);
		nb_submit(nt.nb, &d);
	}
	if (nt.o.stats)
		nb_print_stats(nt.nb, stderr);
	/* Let what is queued (a last ack, a deregister) leave. */
	ipx_loop_run_once(nt.cn.loop, 0);
	nb_close(nt.nb);
	if (nt.stream)
		nb_stream_free(nt.stream);	/* nothing of it pending now */
	cli_node_close(&nt.cn);
	while (nt.njobs)
		free(nt.jobs[--nt.njobs]);
	return rc;
}
