/*
 * cmd_mount.c - "ipxlab mount": a NetWare volume as a Linux directory
 * (FUSE, docs/mount.md). Parses the options, opens one node per
 * connection of the pool (cli_node_open), and calls ipx_mount_run.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "ipxlab/mount.h"

void help_mount(FILE *out)
{
	fprintf(out,
		"Mount VOLUME of a NetWare file server on MOUNTPOINT (FUSE) and\n"
		"serve it in the foreground until unmounted: Ctrl-C, SIGTERM or\n"
		"`fusermount3 -u MOUNTPOINT`. Names are DOS 8.3 on a server\n"
		"without the LONG name space (ipxlab's): a longer name fails with\n"
		"ENAMETOOLONG, a character DOS cannot hold with EINVAL. What\n"
		"another client changes is seen at the next open (see\n"
		"%s/mount.md).\n\n"
		"  -s, --server NAME   the server (default: the nearest)\n"
		"  -u, --user NAME     log in as NAME (default GUEST)\n"
		"  --password-file F   the password is F's first line (default:\n"
		"                      $IPXLAB_NCP_PASSWORD, else none)\n"
		"  --no-login          stay logged out (only SYS:LOGIN)\n"
		"  --conns N           NCP connections in flight (1-16, default 4)\n"
		"  --retry-time SECONDS\n"
		"                      how long a request is retried before it\n"
		"                      fails with EIO (default 10)\n"
		"  --attr-timeout SECONDS\n"
		"                      how long the kernel keeps attributes and\n"
		"                      names (default 0: asked every time)\n"
		"  --find-timeout SECONDS\n"
		"                      how long to look for the server (default 3)\n"
		"  --bufsize N         NCP buffer size to ask for (512-4096)\n"
		"  -r, --read-only     mount read-only\n"
		"  -d, --debug         libfuse's debugging: every request logged\n"
		CLI_NODE_OPTS_HELP,
		cli_docs);
}

enum {
	OPT_PWFILE = OPT_FIRST_CMD,
	OPT_NOLOGIN,
	OPT_CONNS,
	OPT_RETRY,
	OPT_ATTR,
	OPT_FINDTO,
	OPT_BUFSIZE,
};

static int open_node(void *ctx, struct ipx_mount_node *out)
{
	const struct cli_node_opts *no = ctx;
	struct cli_node *cn = calloc(1, sizeof(*cn));
	sigset_t set;

	if (!cn)
		return -1;
	if (cli_node_open(cn, no) != CLI_OK) {
		free(cn);
		return -1;
	}
	/* cli_node_open leaves SIGINT and SIGTERM to the loop (blocked, read
	 * from a signalfd); here libfuse's handlers take them, to unmount. */
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	out->loop = cn->loop;
	out->node = cn->node;
	out->handle = cn;
	return 0;
}

static void close_node(void *ctx, struct ipx_mount_node *n)
{
	(void)ctx;
	cli_node_close(n->handle);
	free(n->handle);
}

/* The first line of F, without its newline. */
static int read_password(const char *path, char *buf, size_t cap)
{
	FILE *f = fopen(path, "r");

	if (!f) {
		cli_error("mount", "--password-file %s: %s", path,
			  strerror(errno));
		return -1;
	}
	if (!fgets(buf, (int)cap, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\r\n")] = '\0';
	return 0;
}

int cmd_mount(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_NODE_LONGOPTS,
		{ "server", required_argument, NULL, 's' },
		{ "user", required_argument, NULL, 'u' },
		{ "password-file", required_argument, NULL, OPT_PWFILE },
		{ "no-login", no_argument, NULL, OPT_NOLOGIN },
		{ "conns", required_argument, NULL, OPT_CONNS },
		{ "retry-time", required_argument, NULL, OPT_RETRY },
		{ "attr-timeout", required_argument, NULL, OPT_ATTR },
		{ "find-timeout", required_argument, NULL, OPT_FINDTO },
		{ "bufsize", required_argument, NULL, OPT_BUFSIZE },
		{ "read-only", no_argument, NULL, 'r' },
		{ "debug", no_argument, NULL, 'd' },
		{ NULL, 0, NULL, 0 },
	};
	static const char shortopts[] = "s:u:rdvqh";
	struct cli_node_opts no;
	struct ipx_mount_opts mo;
	const char *user = "GUEST", *pass = getenv("IPXLAB_NCP_PASSWORD");
	char pwbuf[128];
	unsigned long n;
	bool login = true;
	int opt, rc;

	memset(&mo, 0, sizeof(mo));
	cli_node_opts_init(&no);
	optind = 1;
	while ((opt = getopt_long(argc, argv, shortopts, longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 's':
			mo.server = optarg;
			break;
		case 'u':
			user = optarg;
			break;
		case OPT_PWFILE:
			if (read_password(optarg, pwbuf, sizeof(pwbuf)) < 0)
				return CLI_FAIL;
			pass = pwbuf;
			break;
		case OPT_NOLOGIN:
			login = false;
			break;
		case OPT_CONNS:
			if (cli_parse_uint("mount", "--conns", optarg, 1, 16,
					   &n) < 0)
				return CLI_USAGE;
			mo.conns = (unsigned)n;
			break;
		case OPT_BUFSIZE:
			if (cli_parse_uint("mount", "--bufsize", optarg, 512,
					   4096, &n) < 0)
				return CLI_USAGE;
			mo.bufsize = (uint16_t)n;
			break;
		case OPT_RETRY:
			if (cli_parse_seconds("mount", "--retry-time", optarg,
					      0.2, 600, &mo.retry_time) < 0)
				return CLI_USAGE;
			break;
		case OPT_ATTR:
			if (cli_parse_seconds("mount", "--attr-timeout", optarg,
					      0, 3600, &mo.attr_timeout) < 0)
				return CLI_USAGE;
			break;
		case OPT_FINDTO:
			if (cli_parse_seconds("mount", "--find-timeout", optarg,
					      0.1, 600, &mo.find_timeout) < 0)
				return CLI_USAGE;
			break;
		case 'r':
			mo.read_only = true;
			break;
		case 'd':
			mo.debug = true;
			break;
		case 'h':
			cli_usage_line(stdout, "mount");
			help_mount(stdout);
			return CLI_OK;
		default:
			rc = cli_node_opt(&no, "mount", opt, optarg);
			if (rc < 0)
				return CLI_USAGE;
			if (rc == 0)
				return cli_bad_option("mount", argv, shortopts,
						      longopts);
		}
	}
	if (argc - optind != 2) {
		cli_error("mount", "needs VOLUME and MOUNTPOINT");
		return CLI_USAGE;
	}
	if (strlen(user) == 0 || strlen(user) > 47 ||
	    (pass && strlen(pass) > 127)) {
		cli_error("mount", "--user must be 1 to 47 characters and the "
				   "password at most 127");
		return CLI_USAGE;
	}
	if (!ipx_mount_available()) {
		cli_error("mount", "this ipxlab was built without libfuse3 "
				   "(scripts/install-deps.sh installs "
				   "libfuse3-dev; then make)");
		return CLI_FAIL;
	}
	mo.volume = argv[optind];
	mo.mountpoint = argv[optind + 1];
	mo.user = login ? user : NULL;
	mo.password = pass ? pass : "";
	mo.open_node = open_node;
	mo.close_node = close_node;
	mo.ctx = &no;
	return ipx_mount_run(&mo);
}
