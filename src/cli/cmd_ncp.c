/*
 * cmd_ncp.c - "ipxlab ncp": a NetWare client for people, in the manner of
 * smbclient and the NetWare utilities: find a file server (by name or the
 * nearest), log in, then one command: ls, get, put, rm, mkdir, rmdir, mv,
 * stat, info, whoami, send, messages, passwd (docs/ncp.md). Remote
 * paths are VOL:DIR\NAME or relative to SYS:, '/' or '\' between names; ls, get and rm take DOS
 * wildcards (* and ?) in the last name.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_ncp.h"


void help_ncp(FILE *out)
{
	fprintf(out,
		"Talk to a NetWare file server over NCP. Commands:\n"
		"  ls [PATH]           list a directory (or PATH with wildcards):\n"
		"                      name, size, date, time\n"
		"  get REMOTE [LOCAL]  copy a file here (wildcards: every match,\n"
		"                      into LOCAL as a directory, default .;\n"
		"                      - is stdout)\n"
		"  put LOCAL [REMOTE]  copy a file there (default: its name in SYS:;\n"
		"                      REMOTE a directory: into it; - is stdin)\n"
		"  rm PATH             erase files (wildcards allowed)\n"
		"  mkdir PATH, rmdir PATH, mv FROM TO, stat PATH\n"
		"  info                the server's name, version, connections\n"
		"  whoami              the user and station of this connection\n"
		"  send USER|CONN MSG  a message (at most 58 characters) to every\n"
		"                      connection of USER, or to connection CONN\n"
		"  messages            the message the server holds for us (one\n"
		"                      held after any command is printed too)\n"
		"  passwd              change the --user's password (keyed); the\n"
		"                      new one asked twice on a terminal, else\n"
		"                      one line of stdin\n"
		"  rights [PATH]       effective rights there, and its trustees\n"
		"                      (with Access Control)\n"
		"  grant USER RIGHTS PATH, revoke USER PATH\n"
		"                      set or remove USER's trustee assignment on\n"
		"                      directory PATH (RIGHTS: letters of SRWCEMFA)\n"
		"Paths: VOL:DIR\\NAME, or relative to SYS:; options go anywhere\n"
		"(after -- a path may start with -); names are long (spaces, any\n"
		"case, up to 255) on a server with the LONG name space, else\n"
		"DOS 8.3. Exit 0\n"
		"success, 1 a failure (named, with the server's completion\n"
		"code) or Ctrl-C, 2 bad usage. Large transfers show progress on\n"
		"a terminal; a silent server is said after 2 s and looked for\n"
		"again by name (a get or put then goes on).\n\n"
		"  -s, --server NAME   the server (default: the nearest that\n"
		"                      answers SAP: nearest-server and general\n"
		"                      queries in turn, every 0.5 s)\n"
		"  -u, --user NAME     log in as NAME (default GUEST)\n"
		"  -p, --password PW   its password (default: $IPXLAB_NCP_PASSWORD,\n"
		"                      else asked on a terminal, else none)\n"
		"  --no-login          stay logged out (only SYS:LOGIN is visible)\n"
		"  --clear-text        send the password in clear text if the\n"
		"                      server gives no login key (default: keyed\n"
		"                      login only, as NetWare 3.x asks)\n"
		"  --bufsize N         buffer size to ask for (512-4096, default\n"
		"                      4096: the server answers what fits a packet)\n"
		"  --no-burst          one request at a time: no packet burst\n"
		"                      (by default get and put move bursts of\n"
		"                      fragments where the server grants 0x65)\n"
		"  --find-timeout SECONDS\n"
		"                      how long to look for the server (default 3)\n"
		"  --dos-names         DOS 8.3 names only, even on a server with\n"
		"                      long names (its aliases for the others)\n"
		CLI_NODE_OPTS_HELP);
}

enum { OPT_NOLOGIN = OPT_FIRST_CMD, OPT_BUFSIZE, OPT_FINDTO, OPT_CLEAR,
       OPT_DOSNAMES, OPT_NOBURST };

/* parse_opts: -h answered, nothing more to do. */
#define CLI_DONE (-1)

/* The number of arguments each command takes, checked before we join. */
static int check_args(int argc, char **argv)
{
	const char *c = argv[0];
	int want = !strcmp(c, "ls") || !strcmp(c, "rights") ? -1
		   : !strcmp(c, "grant") ? 3
		   : !strcmp(c, "revoke") ? 2
		   : !strcmp(c, "info") || !strcmp(c, "whoami") ||
				   !strcmp(c, "messages") || !strcmp(c, "passwd")
			   ? 0
		   : !strcmp(c, "mv") || !strcmp(c, "send") ? 2
		   : !strcmp(c, "get") || !strcmp(c, "put") ? -2
							     : 1;

	if ((want >= 0 && argc - 1 != want) || (want == -1 && argc > 2) ||
	    (want == -2 && (argc < 2 || argc > 3))) {
		cli_error("ncp", "%s: wrong number of arguments (see "
				 "'ipxlab ncp --help')", c);
		return CLI_USAGE;
	}
	return CLI_OK;
}

/* The remote paths of a command, once connected: each an 8.3 name
 * unless the server has long names (ncp_check_path_on), else refused
 * before it is asked: a server says BAD_PATH or BAD_NAME, not why. */
static int check_names(const struct ncp_client *cl, int argc, char **argv)
{
	const char *c = argv[0];

	if (!strcmp(c, "send"))
		return CLI_OK;	/* a user and a message, not paths */
	for (int i = 1; i < argc; i++) {
		bool remote = strcmp(c, "get") ? strcmp(c, "put") || i == 2
					       : i == 1;

		if (!strcmp(c, "grant") || !strcmp(c, "revoke"))
			remote = i == argc - 1;	/* USER [RIGHTS] PATH */

		if (remote && ncp_check_path_on(cl, argv[i]))
			return ncpc_fail(c, argv[i], NCP_E_NOT83);
	}
	return CLI_OK;
}

static const char *const commands[] = { "ls", "get", "put", "rm", "mkdir",
					"rmdir", "mv", "stat", "info",
					"whoami", "send", "messages",
					"passwd", "rights", "grant",
					"revoke", NULL };


/* The options, in a; the command's words from optind. CLI_OK to go on,
 * else the exit code. Options anywhere, as in the other commands; after
 * `--` a path may start with '-'. */
static int parse_opts(int argc, char **argv, struct cli_opts *o,
		      struct ncp_args *a)
{
	static const struct option longopts[] = {
		CLI_NODE_LONGOPTS,
		{ "server", required_argument, NULL, 's' },
		{ "user", required_argument, NULL, 'u' },
		{ "password", required_argument, NULL, 'p' },
		{ "no-login", no_argument, NULL, OPT_NOLOGIN },
		{ "clear-text", no_argument, NULL, OPT_CLEAR },
		{ "bufsize", required_argument, NULL, OPT_BUFSIZE },
		{ "find-timeout", required_argument, NULL, OPT_FINDTO },
		{ "dos-names", no_argument, NULL, OPT_DOSNAMES },
		{ "no-burst", no_argument, NULL, OPT_NOBURST },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	cli_opts_init(o, "ncp", "s:u:p:vqh", longopts, help_ncp);
	while ((opt = cli_next_opt(o, argc, argv)) != CLI_OPTS_END) {
		if (opt == CLI_OPTS_EXIT)
			return o->rc == CLI_OK ? CLI_DONE : o->rc;
		switch (opt) {
		case 's':
			a->server = optarg;
			break;
		case 'u':
			a->user = optarg;
			a->user_given = true;
			break;
		case 'p':
			a->pass = optarg;
			break;
		case OPT_NOLOGIN:
			a->login = false;
			break;
		case OPT_CLEAR:
			a->clear_text = true;
			break;
		case OPT_DOSNAMES:
			a->dos_names = true;
			break;
		case OPT_NOBURST:
			a->no_burst = true;
			break;
		case OPT_BUFSIZE:
			if (cli_parse_uint("ncp", "--bufsize", optarg, 512, 4096,
					   &a->bufsize) < 0)
				return CLI_USAGE;
			break;
		case OPT_FINDTO:
			if (cli_parse_seconds("ncp", "--find-timeout", optarg,
					      0.1, 600, &a->findto) < 0)
				return CLI_USAGE;
			break;
		default:
			return cli_opts_bad(o, argv);
		}
	}
	return CLI_OK;
}

/* The command and its arguments, checked before we join. */
static int check_command(int argc, char **argv)
{
	bool known = false;

	if (argc < 1) {
		cli_error("ncp", "needs a command: ls, get, put, rm, mkdir, "
				 "rmdir, mv, stat, info, whoami, send, messages, "
				 "passwd, rights, grant, revoke");
		return CLI_USAGE;
	}
	for (const char *const *c = commands; *c; c++)
		known |= !strcmp(*c, argv[0]);
	if (!known) {
		cli_error("ncp", "unknown command '%s' (ls, get, put, rm, "
				 "mkdir, rmdir, mv, stat, info, whoami, send, "
				 "messages, passwd, rights, grant, revoke)",
			  argv[0]);
		return CLI_USAGE;
	}
	if (check_args(argc, argv) != CLI_OK)
		return CLI_USAGE;
	return CLI_OK;
}

int cmd_ncp(int argc, char **argv)
{
	struct cli_opts o;
	struct ncp_args a = { .user = "GUEST",
			      .pass = getenv("IPXLAB_NCP_PASSWORD"),
			      .login = true, .bufsize = 4096, .findto = 3 };
	struct session s;
	char pwbuf[128];
	int rc;

	memset(&s, 0, sizeof(s));
	rc = parse_opts(argc, argv, &o, &a);
	if (rc != CLI_OK)
		return rc == CLI_DONE ? CLI_OK : rc;
	rc = check_command(argc - optind, argv + optind);
	if (rc != CLI_OK)
		return rc;
	/* No terminal (a script): no password, as before. */
	if (a.login && a.user_given && !a.pass)
		a.pass = cli_ask_password(a.user, pwbuf, sizeof(pwbuf));
	if (strlen(a.user) == 0 || strlen(a.user) > 47 ||
	    (a.pass && strlen(a.pass) > 127)) {
		cli_error("ncp", "--user must be 1 to 47 characters and "
				 "--password at most 127");
		return CLI_USAGE;
	}
	rc = cli_node_open(&s.cn, &o.node);
	if (rc != CLI_OK)
		return rc;
	rc = ncpc_connect(&s, &a);
	if (rc == CLI_OK)
		rc = check_names(s.cl, argc - optind, argv + optind);
	if (rc == CLI_OK) {
		rc = ncpc_run(&s, argc - optind, argv + optind);
		ncpc_show_held(&s);
	}
	ncpc_end(&s);
	return rc;
}
