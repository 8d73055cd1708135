/*
 * cmd_server.c - "ipxlab server": a NetWare file server (NCP on socket
 * 0x451, SAP type 4) serving host directories as volumes (docs/ncp.md).
 * Statistics go to stdout on SIGUSR1 and at exit.
 */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/ncp_server.h"

void help_server(FILE *out)
{
	fprintf(out,
		"Serve host directories as NetWare volumes over NCP (socket\n"
		"0x451), advertised with SAP as a file server (type 4), so\n"
		"'ipxlab slist' and NetWare clients find it. DOS 8.3 names,\n"
		"upper case; host names that are not 8.3 are not visible.\n"
		"Before login only SYS:LOGIN can be seen. Statistics are\n"
		"printed on SIGUSR1 and at exit.\n\n"
		"  --volume NAME=DIR[,ro]\n"
		"                      a volume (repeatable, at most %d); SYS is\n"
		"                      required; ',ro' refuses every change\n"
		"  -n, --name NAME     the server name (default: the host name in\n"
		"                      upper case)\n"
		"  --users FILE        users: 'NAME ID HASH' per line, NetWare's\n"
		"                      password hash, as --passwd writes it (a\n"
		"                      hand-written 'NAME PASSWORD' line, '-' = no\n"
		"                      password, is read too); SUPERVISOR needs\n"
		"                      one here to log in; GUEST has none unless\n"
		"                      given\n"
		"  --passwd USER       set USER's password in the --users file\n"
		"                      (asked on a terminal, else one line of\n"
		"                      stdin; added if new; every line rewritten\n"
		"                      hashed) and exit\n"
		"  --allow-clear-text  take clear-text logins (0x17 0x14); by\n"
		"                      default they are refused (0xD6) as on\n"
		"                      NetWare 3.x, and clients log in keyed\n"
		"  --rights FILE       trustee rights, 'PATH USER RIGHTS' per line\n"
		"                      (RIGHTS of SRWCEMFA, e.g. SYS:DATA ALICE RWCEF):\n"
		"                      then enforced, and 'ipxlab ncp grant/revoke'\n"
		"                      write it; without it every logged-in user\n"
		"                      has all rights\n"
		"  --max-connections N connections at once (default 250)\n"
		"  --max-handles N     open files per connection (default 64)\n"
		"  --max-locks N       record locks per connection (default 64)\n"
		"  --max-buffer BYTES  the largest buffer size a client may\n"
		"                      negotiate, 512 to 65535 (default: 1024 by\n"
		"                      0x21, what the link carries by 0x61); 512\n"
		"                      for clients behind a 576-byte bridge\n"
		"  --watchdog DELAY[,INTERVAL[,COUNT]]\n"
		"                      poll a connection silent for DELAY seconds\n"
		"                      every INTERVAL, clear it after COUNT\n"
		"                      unanswered polls (default NetWare's\n"
		"                      296.6,59.3,10)\n"
		"  --no-burst          refuse packet burst: 0x65 answered 0xFB\n"
		"                      and 0x7777 packets dropped, as mars_nwe\n"
		"                      built without burst mode\n"
		CLI_NODE_OPTS_HELP,
		NCP_MAX_VOLUMES);
}

enum {
	OPT_VOLUME = OPT_FIRST_CMD,
	OPT_USERS,
	OPT_MAXCONN,
	OPT_MAXHANDLES,
	OPT_MAXLOCKS,
	OPT_MAXBUFFER,
	OPT_WATCHDOG,
	OPT_PASSWD,
	OPT_CLEAR,
	OPT_RIGHTS,
	OPT_NOBURST,
};

/* --watchdog DELAY[,INTERVAL[,COUNT]]: 0, or -1 with the error printed. */
static int parse_watchdog(const char *text, struct ncp_server_opts *so)
{
	char buf[128], *interval, *count;
	double d;
	unsigned long n;

	if (strlen(text) >= sizeof(buf)) {
		cli_error("server", "--watchdog: '%s' is too long", text);
		return -1;
	}
	strcpy(buf, text);
	interval = strchr(buf, ',');
	if (interval)
		*interval++ = '\0';
	count = interval ? strchr(interval, ',') : NULL;
	if (count)
		*count++ = '\0';
	if (cli_parse_seconds("server", "--watchdog's delay", buf, 0.1, 86400,
			      &d) < 0)
		return -1;
	so->wdog_delay = (ipx_time)(d * IPX_SEC);
	if (interval) {
		if (cli_parse_seconds("server", "--watchdog's interval",
				      interval, 0.1, 86400, &d) < 0)
			return -1;
		so->wdog_interval = (ipx_time)(d * IPX_SEC);
	}
	if (count) {
		if (cli_parse_uint("server", "--watchdog's count", count, 1,
				   1000, &n) < 0)
			return -1;
		so->wdog_count = (unsigned)n;
	}
	return 0;
}

static void default_name(char *buf, size_t len)
{
	char host[256] = "IPXLAB";

	if (gethostname(host, sizeof(host) - 1) < 0 || !host[0])
		strcpy(host, "IPXLAB");
	host[sizeof(host) - 1] = '\0';
	snprintf(buf, len, "%.47s", host);
	for (char *p = buf; *p; p++) {
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 32);
		else if (*p < 0x21 || *p > 0x7E)
			*p = '-';
	}
}

static void on_signal(struct ipx_loop *loop, int signo, void *ctx)
{
	if (signo == SIGUSR1) {
		ncp_server_print_stats(ctx, stdout);
		fflush(stdout);
	} else {
		ipx_loop_stop(loop);
	}
}

static int opt_volume(struct ncp_server_opts *so, const char *arg)
{
	char err[512];

	if (so->nvolumes == NCP_MAX_VOLUMES) {
		cli_error("server", "at most %d volumes", NCP_MAX_VOLUMES);
		return CLI_USAGE;
	}
	if (ncp_volume_spec_parse(arg, &so->volumes[so->nvolumes], err,
				  sizeof(err)) < 0) {
		cli_error("server", "--volume %s", err);
		return CLI_USAGE;
	}
	so->nvolumes++;
	return CLI_OK;
}

/* --max-connections, --max-handles, --max-locks, --max-buffer. */
static int opt_limit(struct ncp_server_opts *so, int opt, const char *arg)
{
	unsigned long v;

	if (opt == OPT_MAXBUFFER) {
		if (cli_parse_uint("server", "--max-buffer", arg, 512, 65535,
				   &v) < 0)
			return CLI_USAGE;
		so->max_buffer = (unsigned)v;
		return CLI_OK;
	}
	if (cli_parse_uint("server",
			   opt == OPT_MAXCONN	  ? "--max-connections"
			   : opt == OPT_MAXHANDLES ? "--max-handles"
						   : "--max-locks",
			   arg, 1, opt == OPT_MAXCONN ? 1000 : 1024, &v) < 0)
		return CLI_USAGE;
	if (opt == OPT_MAXCONN)
		so->max_connections = (unsigned)v;
	else if (opt == OPT_MAXHANDLES)
		so->max_handles = (unsigned)v;
	else
		so->max_locks = (unsigned)v;
	return CLI_OK;
}

/* What the options must say together: CLI_OK or the exit code. */
static int server_check(const struct ncp_server_opts *so, const char *passwd)
{
	if (passwd && !so->users_file) {
		cli_error("server", "--passwd needs --users FILE (the file "
				    "to keep the password in)");
		return CLI_USAGE;
	}
	if (passwd)
		return CLI_OK;
	if (so->nvolumes == 0) {
		cli_error("server", "needs --volume SYS=DIR (and any other "
				    "volumes as NAME=DIR[,ro])");
		return CLI_USAGE;
	}
	if (!ipx_sap_name_ok(so->name)) {
		cli_error("server", "--name must be 1 to %d printable "
				    "characters",
			  IPX_SAP_NAME_MAX);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* The options into so and no; CLI_OK to go on, -1 after --help, else
 * the exit code. */
static int server_parse(int argc, char **argv, struct ncp_server_opts *so,
			struct cli_node_opts *no, const char **passwd)
{
	static const struct option longopts[] = {
		CLI_NODE_LONGOPTS,
		{ "name", required_argument, NULL, 'n' },
		{ "volume", required_argument, NULL, OPT_VOLUME },
		{ "users", required_argument, NULL, OPT_USERS },
		{ "max-connections", required_argument, NULL, OPT_MAXCONN },
		{ "max-handles", required_argument, NULL, OPT_MAXHANDLES },
		{ "max-locks", required_argument, NULL, OPT_MAXLOCKS },
		{ "max-buffer", required_argument, NULL, OPT_MAXBUFFER },
		{ "watchdog", required_argument, NULL, OPT_WATCHDOG },
		{ "passwd", required_argument, NULL, OPT_PASSWD },
		{ "allow-clear-text", no_argument, NULL, OPT_CLEAR },
		{ "rights", required_argument, NULL, OPT_RIGHTS },
		{ "no-burst", no_argument, NULL, OPT_NOBURST },
		{ NULL, 0, NULL, 0 },
	};
	int opt, rc;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "n:vqh", longopts, NULL)) != -1) {
		rc = CLI_OK;
		switch (opt) {
		case 'n':
			so->name = optarg;
			break;
		case OPT_VOLUME:
			rc = opt_volume(so, optarg);
			break;
		case OPT_USERS:
			so->users_file = optarg;
			break;
		case OPT_PASSWD:
			*passwd = optarg;
			break;
		case OPT_CLEAR:
			so->allow_clear_text = true;
			break;
		case OPT_MAXCONN:
		case OPT_MAXHANDLES:
		case OPT_MAXLOCKS:
		case OPT_MAXBUFFER:
			rc = opt_limit(so, opt, optarg);
			break;
		case OPT_WATCHDOG:
			rc = parse_watchdog(optarg, so) < 0 ? CLI_USAGE : CLI_OK;
			break;
		case OPT_RIGHTS:
			so->rights_file = optarg;
			break;
		case OPT_NOBURST:
			so->no_burst = true;
			break;
		case 'h':
			cli_usage_line(stdout, "server");
			help_server(stdout);
			return -1;
		default:
			rc = cli_node_opt(no, "server", opt, optarg);
			if (rc < 0)
				return CLI_USAGE;
			if (rc == 0)
				return cli_bad_option("server", argv, "n:vqh",
						      longopts);
			rc = CLI_OK;
		}
		if (rc != CLI_OK)
			return rc;
	}
	if (optind < argc) {
		cli_error("server", "unexpected argument '%s'", argv[optind]);
		return CLI_USAGE;
	}
	return server_check(so, *passwd);
}

/* --passwd: the password from the terminal (twice) or a line of stdin,
 * never from the command line, into the users file. */
static int set_passwd(const char *file, const char *user)
{
	char pw[130], again[130], err[512];
	const char *p = cli_ask_password(user, pw, sizeof(pw));
	int rc;

	if (p && (!cli_ask_password(user, again, sizeof(again)) ||
		  strcmp(pw, again))) {
		cli_error("server", "--passwd: the two passwords differ");
		return CLI_FAIL;
	}
	if (!p) {
		if (!fgets(pw, sizeof(pw), stdin))
			pw[0] = '\0';
		pw[strcspn(pw, "\r\n")] = '\0';
	}
	rc = ncp_users_set_password(file, user, pw, err, sizeof(err));
	memset(pw, 0, sizeof(pw));
	memset(again, 0, sizeof(again));
	if (rc != IPX_OK) {
		cli_error("server", "--passwd %s: %s", user, err);
		return rc == IPX_EINVAL ? CLI_USAGE : CLI_FAIL;
	}
	fprintf(stderr, "password of %s set in %s\n", user, file);
	return CLI_OK;
}

int cmd_server(int argc, char **argv)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGUSR1 };
	struct ncp_server_opts so;
	struct cli_node_opts no;
	struct cli_node cn;
	struct ncp_server *srv;
	char name[48], err[512], as[IPX_ADDR_STRLEN];
	const char *passwd = NULL;
	int rc;

	memset(&so, 0, sizeof(so));
	so.name_check = IPX_SEC;	/* refuse a name another server has */
	cli_node_opts_init(&no);
	default_name(name, sizeof(name));
	so.name = name;
	rc = server_parse(argc, argv, &so, &no, &passwd);
	if (rc != CLI_OK)
		return rc < 0 ? CLI_OK : rc;
	if (passwd)
		return set_passwd(so.users_file, passwd);
	rc = cli_node_open(&cn, &no);
	if (rc != CLI_OK)
		return rc;
	if (ncp_server_new(cn.node, &so, &srv, err, sizeof(err)) != IPX_OK) {
		cli_error("server", "%s", err);
		cli_node_close(&cn);
		return CLI_FAIL;
	}
	ipx_loop_watch_signals(cn.loop, sigs, 3, on_signal, srv);
	cn.addr.socket = 0x451;
	fprintf(stderr, "server '%s' ready at %s (pid %d)\n", so.name,
		ipx_addr_format(&cn.addr, as), (int)getpid());
	for (size_t i = 0; i < so.nvolumes; i++)
		fprintf(stderr, "  volume %s = %s%s\n", so.volumes[i].name,
			so.volumes[i].dir,
			so.volumes[i].read_only ? " (read-only)" : "");
	rc = ipx_loop_run(cn.loop);
	ncp_server_print_stats(srv, stdout);
	ncp_server_free(srv);	/* SAP: going down */
	ipx_loop_run_once(cn.loop, 0);
	cli_node_close(&cn);
	return rc == IPX_OK ? CLI_OK : CLI_FAIL;
}
