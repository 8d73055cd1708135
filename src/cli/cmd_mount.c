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
		"  --clear-text        send the password in clear text if the\n"
		"                      server gives no login key (default: the\n"
		"                      keyed login NetWare 3.x asks for, or fail)\n"
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
		"  --dos-names         DOS 8.3 names only, even on a server with\n"
		"                      long names (its aliases for the others)\n"
		"  --no-burst          one request at a time (no packet burst)\n"
		"  -r, --read-only     mount read-only\n"
		"  -d, --debug         libfuse's debugging: every request logged\n"
		CLI_NODE_OPTS_HELP,
		cli_docs);
}

enum {
	OPT_PWFILE = OPT_FIRST_CMD,
	OPT_CLEAR,
	OPT_NOLOGIN,
	OPT_CONNS,
	OPT_RETRY,
	OPT_ATTR,
	OPT_FINDTO,
	OPT_BUFSIZE,
	OPT_DOSNAMES,
	OPT_NOBURST,
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

/* What the options say beside the mount's own options. */
struct mount_args {
	const char *user, *pass;
	char pwbuf[128];
	bool login;
};

static const struct option mount_longopts[] = {
	CLI_NODE_LONGOPTS,
	{ "server", required_argument, NULL, 's' },
	{ "user", required_argument, NULL, 'u' },
	{ "password-file", required_argument, NULL, OPT_PWFILE },
	{ "no-login", no_argument, NULL, OPT_NOLOGIN },
	{ "clear-text", no_argument, NULL, OPT_CLEAR },
	{ "conns", required_argument, NULL, OPT_CONNS },
	{ "retry-time", required_argument, NULL, OPT_RETRY },
	{ "attr-timeout", required_argument, NULL, OPT_ATTR },
	{ "find-timeout", required_argument, NULL, OPT_FINDTO },
	{ "bufsize", required_argument, NULL, OPT_BUFSIZE },
	{ "dos-names", no_argument, NULL, OPT_DOSNAMES },
	{ "no-burst", no_argument, NULL, OPT_NOBURST },
	{ "read-only", no_argument, NULL, 'r' },
	{ "debug", no_argument, NULL, 'd' },
	{ NULL, 0, NULL, 0 },
};

/* One of the mount's options into mo or a; CLI_OK, or the exit code. */
static int mount_opt(int opt, struct ipx_mount_opts *mo, struct mount_args *a)
{
	unsigned long n;

	switch (opt) {
	case 's':
		mo->server = optarg;
		return CLI_OK;
	case 'u':
		a->user = optarg;
		return CLI_OK;
	case OPT_PWFILE:
		if (read_password(optarg, a->pwbuf, sizeof(a->pwbuf)) < 0)
			return CLI_FAIL;
		a->pass = a->pwbuf;
		return CLI_OK;
	case OPT_NOLOGIN:
		a->login = false;
		return CLI_OK;
	case OPT_CLEAR:
		mo->clear_text = true;
		return CLI_OK;
	case OPT_CONNS:
		if (cli_parse_uint("mount", "--conns", optarg, 1, 16, &n) < 0)
			return CLI_USAGE;
		mo->conns = (unsigned)n;
		return CLI_OK;
	case OPT_BUFSIZE:
		if (cli_parse_uint("mount", "--bufsize", optarg, 512, 4096,
				   &n) < 0)
			return CLI_USAGE;
		mo->bufsize = (uint16_t)n;
		return CLI_OK;
	case OPT_NOBURST:
		mo->no_burst = true;
		return CLI_OK;
	case OPT_RETRY:
		return cli_parse_seconds("mount", "--retry-time", optarg, 0.2,
					 600, &mo->retry_time) < 0 ?
			       CLI_USAGE : CLI_OK;
	case OPT_ATTR:
		return cli_parse_seconds("mount", "--attr-timeout", optarg, 0,
					 3600, &mo->attr_timeout) < 0 ?
			       CLI_USAGE : CLI_OK;
	case OPT_FINDTO:
		return cli_parse_seconds("mount", "--find-timeout", optarg,
					 0.1, 600, &mo->find_timeout) < 0 ?
			       CLI_USAGE : CLI_OK;
	case OPT_DOSNAMES:
		mo->dos_names = true;
		return CLI_OK;
	case 'r':
		mo->read_only = true;
		return CLI_OK;
	case 'd':
		mo->debug = true;
		return CLI_OK;
	}
	return -1;
}

int cmd_mount(int argc, char **argv)
{
	static const char shortopts[] = "s:u:rdvqh";
	struct cli_opts o;
	struct ipx_mount_opts mo;
	struct mount_args a = { .user = "GUEST", .login = true };
	int opt, rc;

	memset(&mo, 0, sizeof(mo));
	a.pass = getenv("IPXLAB_NCP_PASSWORD");
	cli_opts_init(&o, "mount", shortopts, mount_longopts, help_mount);
	while ((opt = cli_next_opt(&o, argc, argv)) != CLI_OPTS_END) {
		if (opt == CLI_OPTS_EXIT)
			return o.rc;
		rc = mount_opt(opt, &mo, &a);
		if (rc < 0)
			return cli_opts_bad(&o, argv);
		if (rc != CLI_OK)
			return rc;
	}
	if (argc - optind != 2) {
		cli_error("mount", "needs VOLUME and MOUNTPOINT");
		return CLI_USAGE;
	}
	if (strlen(a.user) == 0 || strlen(a.user) > 47 ||
	    (a.pass && strlen(a.pass) > 127)) {
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
	mo.user = a.login ? a.user : NULL;
	mo.password = a.pass ? a.pass : "";
	mo.open_node = open_node;
	mo.close_node = close_node;
	mo.ctx = &o.node;
	return ipx_mount_run(&mo);
}
