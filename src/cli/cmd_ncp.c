/*
 * cmd_ncp.c - "ipxlab ncp": a NetWare client for people, in the manner of
 * smbclient and the NetWare utilities: find a file server (by name or the
 * nearest), log in, then one command: ls, get, put, rm, mkdir, rmdir, mv,
 * stat, info, whoami (docs/ncp.md). Remote paths are VOL:DIR\NAME or
 * relative to SYS:, '/' or '\' between names; ls, get and rm take DOS
 * wildcards (* and ?) in the last name.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "ipxlab/clock.h"
#include "ipxlab/err.h"
#include "ipxlab/log.h"
#include "ipxlab/ncp_client.h"

#define CHUNK (64 * 1024)
#define PROGRESS_MIN (256 * 1024)

void help_ncp(FILE *out)
{
	fprintf(out,
		"Talk to a NetWare file server over NCP. Commands:\n"
		"  ls [PATH]           list a directory (or PATH with wildcards):\n"
		"                      name, size, date, time\n"
		"  get REMOTE [LOCAL]  copy a file here (wildcards: every match,\n"
		"                      into LOCAL as a directory, default .)\n"
		"  put LOCAL [REMOTE]  copy a file there (default: its name in SYS:)\n"
		"  rm PATH             erase files (wildcards allowed)\n"
		"  mkdir PATH, rmdir PATH, mv FROM TO, stat PATH\n"
		"  info                the server's name, version, connections\n"
		"  whoami              the user and station of this connection\n"
		"Paths: VOL:DIR\\NAME, or relative to SYS:; options go anywhere\n"
		"(after -- a path may start with -). Exit 0 success, 1 a\n"
		"failure (the server's completion code or a time-out, named),\n"
		"2 bad usage. Large transfers show progress on a terminal.\n\n"
		"  -s, --server NAME   the server (default: the nearest that\n"
		"                      answers a SAP nearest-server query)\n"
		"  -u, --user NAME     log in as NAME (default GUEST)\n"
		"  -p, --password PW   its password (default: $IPXLAB_NCP_PASSWORD\n"
		"                      or none)\n"
		"  --no-login          stay logged out (only SYS:LOGIN is visible)\n"
		"  --bufsize N         buffer size to ask for (512-4096, default\n"
		"                      4096: the server answers what fits a packet)\n"
		"  --find-timeout SECONDS\n"
		"                      how long to look for the server (default 3)\n"
		CLI_NODE_OPTS_HELP);
}

enum { OPT_NOLOGIN = OPT_FIRST_CMD, OPT_BUFSIZE, OPT_FINDTO };

struct session {
	struct cli_node cn;
	struct ipx_sap *sap;
	struct ncp_client *cl;
	bool progress;
};

static int fail(const char *what, const char *arg, int err)
{
	fprintf(stderr, "ipxlab ncp: %s%s%s: %s\n", what, arg ? " " : "",
		arg ? arg : "", ncp_strerror(err));
	return CLI_FAIL;
}

/* Close after a failure only if the server is still answering: after a
 * time-out the close would wait out the whole back-off again. */
static void close_after(struct session *s, const struct ncp_fh *fh, int rc)
{
	if (rc > 0 && rc < 0x100)
		ncp_close(s->cl, fh);
}

static void show_progress(struct session *s, const char *name, uint64_t done,
			  uint64_t total, ipx_time t0, bool last)
{
	double dt = (double)(ipx_loop_now(s->cn.loop) - t0) / IPX_SEC;

	if (!s->progress || total < PROGRESS_MIN)
		return;
	fprintf(stderr, "\r  %s  %llu/%llu kB  %.0f kB/s%s", name,
		(unsigned long long)(done / 1000),
		(unsigned long long)(total / 1000),
		dt > 0 ? (double)done / 1000 / dt : 0.0, last ? "\n" : "");
}

/* The last name of a remote path. */
static const char *base_name(const char *p)
{
	const char *b = p;

	for (; *p; p++)
		if (*p == '\\' || *p == '/' || *p == ':')
			b = p + 1;
	return b;
}

/* Split at the last separator: dir keeps the separator (or "VOL:"). */
static void split(const char *path, char *dir, size_t cap, const char **name)
{
	size_t n;

	*name = base_name(path);
	n = (size_t)(*name - path);
	if (n >= cap)
		n = cap - 1;
	memcpy(dir, path, n);
	dir[n] = '\0';
}

static int print_entry(const struct ncp_entry *e, void *ctx)
{
	(void)ctx;
	if (e->attr & NCP_ATTR_DIRECTORY)
		printf("%-12s  %10s", e->name, "<DIR>");
	else
		printf("%-12s  %10lu", e->name, (unsigned long)e->size);
	printf("  %04u-%02u-%02u %02u:%02u%s\n", 1980 + (e->date >> 9),
	       (e->date >> 5) & 15, e->date & 31, e->time >> 11,
	       (e->time >> 5) & 63,
	       e->attr & NCP_ATTR_READ_ONLY ? "  read-only" : "");
	return 0;
}

static int do_ls(struct session *s, const char *path)
{
	char dir[300];
	const char *name;
	int rc;

	if (!path)
		path = "SYS:";
	split(path, dir, sizeof(dir), &name);
	if (*name && !strpbrk(name, "*?")) {
		struct ncp_entry e;

		/* A directory: its contents; else the one file. */
		rc = ncp_list(s->cl, path, NULL, print_entry, NULL);
		if (rc == NCP_CC_BAD_PATH && ncp_stat(s->cl, path, &e) == 0 &&
		    !(e.attr & NCP_ATTR_DIRECTORY)) {
			print_entry(&e, NULL);
			return CLI_OK;
		}
	} else {
		rc = ncp_list(s->cl, dir, *name ? name : NULL, print_entry,
			      NULL);
	}
	return rc ? fail("ls", path, rc) : CLI_OK;
}

static int get_one(struct session *s, const char *remote, const char *local)
{
	struct ncp_fh fh;
	uint8_t *buf = malloc(CHUNK);
	uint32_t off = 0;
	ipx_time t0 = ipx_loop_now(s->cn.loop);
	int fd, rc;

	if (!buf)
		return fail("get", remote, IPX_ENOMEM);
	rc = ncp_open(s->cl, remote, NCP_OPEN_READ, &fh);
	if (rc) {
		free(buf);
		return fail("get", remote, rc);
	}
	fd = open(local, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fprintf(stderr, "ipxlab ncp: get: cannot write %s: %s\n", local,
			strerror(errno));
		ncp_close(s->cl, &fh);
		free(buf);
		return CLI_FAIL;
	}
	for (;;) {
		size_t got;

		rc = ncp_read(s->cl, &fh, off, buf, CHUNK, &got);
		if (rc)
			break;
		if (got && write(fd, buf, got) != (ssize_t)got) {
			rc = NCP_E_LOCAL;
			break;
		}
		off += (uint32_t)got;
		show_progress(s, remote, off, fh.size, t0, false);
		if (got < CHUNK)
			break;
	}
	if (close(fd) < 0 && !rc)
		rc = NCP_E_LOCAL;
	show_progress(s, remote, off, fh.size, t0, true);
	free(buf);
	if (rc) {
		close_after(s, &fh, rc);
		fprintf(stderr, "ipxlab ncp: get %s: failed after %lu bytes: "
				"%s\n",
			remote, (unsigned long)off, ncp_strerror(rc));
		return CLI_FAIL;
	}
	rc = ncp_close(s->cl, &fh);
	return rc ? fail("get: close", remote, rc) : CLI_OK;
}

struct get_all {
	struct session *s;
	const char *dir, *local;
	int rc;
	unsigned n;
};

static int get_each(const struct ncp_entry *e, void *ctx)
{
	struct get_all *g = ctx;
	char remote[400], local[4200];

	if (e->attr & NCP_ATTR_DIRECTORY)
		return 0;
	snprintf(remote, sizeof(remote), "%s%s", g->dir, e->name);
	snprintf(local, sizeof(local), "%s/%s", g->local, e->name);
	if (get_one(g->s, remote, local) != CLI_OK)
		g->rc = CLI_FAIL;
	g->n++;
	return 0;
}

static int do_get(struct session *s, const char *remote, const char *local)
{
	char dir[300];
	const char *name;
	struct get_all g = { s, dir, local ? local : ".", CLI_OK, 0 };
	int rc;

	split(remote, dir, sizeof(dir), &name);
	if (!*name) {
		cli_error("ncp", "get: '%s' names no file", remote);
		return CLI_USAGE;
	}
	if (!strpbrk(name, "*?")) {
		struct stat st;
		char path[4200];

		if (local && stat(local, &st) == 0 && S_ISDIR(st.st_mode)) {
			snprintf(path, sizeof(path), "%s/%s", local, name);
			return get_one(s, remote, path);
		}
		return get_one(s, remote, local ? local : name);
	}
	rc = ncp_list(s->cl, dir, name, get_each, &g);
	if (rc)
		return fail("get", remote, rc);
	if (g.n == 0)
		return fail("get", remote, NCP_CC_FAILURE);
	return g.rc;
}

static int do_put(struct session *s, const char *local, const char *remote)
{
	const char *lb = strrchr(local, '/');
	char target[300];
	uint8_t *buf;
	struct ncp_fh fh;
	struct stat st;
	uint32_t off = 0;
	ipx_time t0 = ipx_loop_now(s->cn.loop);
	int fd, rc = 0;

	fd = open(local, O_RDONLY);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "ipxlab ncp: put: cannot read %s: %s\n", local,
			fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return CLI_FAIL;
	}
	if (st.st_size > 0xFFFFFFFFll) {
		fprintf(stderr, "ipxlab ncp: put: %s is larger than NCP's "
				"4 GB\n", local);
		close(fd);
		return CLI_FAIL;
	}
	if (!remote)
		remote = lb ? lb + 1 : local;
	else if (!*base_name(remote)) {	/* a directory: keep the name */
		snprintf(target, sizeof(target), "%s%s", remote,
			 lb ? lb + 1 : local);
		remote = target;
	}
	buf = malloc(CHUNK);
	if (!buf) {
		close(fd);
		return fail("put", remote, IPX_ENOMEM);
	}
	rc = ncp_open(s->cl, remote, NCP_OPEN_CREATE, &fh);
	if (rc) {
		free(buf);
		close(fd);
		return fail("put", remote, rc);
	}
	for (;;) {
		ssize_t n = read(fd, buf, CHUNK);

		if (n < 0) {
			rc = NCP_E_LOCAL;
			break;
		}
		if (n == 0)
			break;
		rc = ncp_write(s->cl, &fh, off, buf, (size_t)n);
		if (rc)
			break;
		off += (uint32_t)n;
		show_progress(s, remote, off, (uint64_t)st.st_size, t0, false);
	}
	close(fd);
	free(buf);
	show_progress(s, remote, off, (uint64_t)st.st_size, t0, true);
	if (!rc)
		rc = ncp_commit(s->cl, &fh);	/* on the server's disk */
	if (rc) {
		fprintf(stderr, "ipxlab ncp: put %s: failed after %lu bytes "
				"acknowledged: %s\n",
			remote, (unsigned long)off, ncp_strerror(rc));
		close_after(s, &fh, rc);
		return CLI_FAIL;
	}
	rc = ncp_close(s->cl, &fh);
	return rc ? fail("put: close", remote, rc) : CLI_OK;
}

static int do_stat(struct session *s, const char *path)
{
	struct ncp_entry e;
	int rc = ncp_stat(s->cl, path, &e);

	if (rc)
		return fail("stat", path, rc);
	printf("name %s\ntype %s\nsize %lu\nattributes %02X%s\n"
	       "modified %04u-%02u-%02u %02u:%02u:%02u\n",
	       e.name, e.attr & NCP_ATTR_DIRECTORY ? "directory" : "file",
	       (unsigned long)e.size, e.attr,
	       e.attr & NCP_ATTR_READ_ONLY ? " (read-only)" : "",
	       1980 + (e.date >> 9), (e.date >> 5) & 15, e.date & 31,
	       e.time >> 11, (e.time >> 5) & 63, (e.time & 31) * 2);
	return CLI_OK;
}

/* The number of arguments each command takes, checked before we join. */
static int check_args(int argc, char **argv)
{
	const char *c = argv[0];
	int want = !strcmp(c, "ls") ? -1
		   : !strcmp(c, "info") || !strcmp(c, "whoami") ? 0
		   : !strcmp(c, "mv") ? 2
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

static int run_command(struct session *s, int argc, char **argv)
{
	const char *c = argv[0];
	int rc;

	if (!strcmp(c, "ls"))
		return do_ls(s, argc > 1 ? argv[1] : NULL);
	if (!strcmp(c, "get"))
		return do_get(s, argv[1], argc > 2 ? argv[2] : NULL);
	if (!strcmp(c, "put"))
		return do_put(s, argv[1], argc > 2 ? argv[2] : NULL);
	if (!strcmp(c, "rm"))
		rc = ncp_erase(s->cl, argv[1]);
	else if (!strcmp(c, "mkdir"))
		rc = ncp_mkdir(s->cl, argv[1]);
	else if (!strcmp(c, "rmdir"))
		rc = ncp_rmdir(s->cl, argv[1]);
	else if (!strcmp(c, "mv"))
		rc = ncp_rename(s->cl, argv[1], argv[2]);
	else if (!strcmp(c, "stat"))
		return do_stat(s, argv[1]);
	else if (!strcmp(c, "info")) {
		struct ncp_server_info si;

		rc = ncp_get_server_info(s->cl, &si);
		if (!rc)
			printf("server %s\nversion %u.%02u\nconnections %u of "
			       "%u (peak %u)\nvolumes %u\nbuffer %u\n",
			       si.name, si.major, si.minor, si.conns,
			       si.max_conns, si.peak, si.volumes,
			       ncp_bufsize(s->cl));
	} else if (!strcmp(c, "whoami")) {
		char user[64];
		uint8_t st;

		rc = ncp_whoami(s->cl, user, sizeof(user), &st);
		if (!rc)
			printf("user %s\nconnection %u\n",
			       user[0] ? user : "(not logged in)", st);
	} else {
		cli_error("ncp", "unknown command '%s' (ls, get, put, rm, "
				 "mkdir, rmdir, mv, stat, info, whoami)", c);
		return CLI_USAGE;
	}
	return rc ? fail(c, argc > 1 ? argv[1] : NULL, rc) : CLI_OK;
}

static const char *const commands[] = { "ls", "get", "put", "rm", "mkdir",
					"rmdir", "mv", "stat", "info",
					"whoami", NULL };

int cmd_ncp(int argc, char **argv)
{
	static const struct option longopts[] = {
		CLI_NODE_LONGOPTS,
		{ "server", required_argument, NULL, 's' },
		{ "user", required_argument, NULL, 'u' },
		{ "password", required_argument, NULL, 'p' },
		{ "no-login", no_argument, NULL, OPT_NOLOGIN },
		{ "bufsize", required_argument, NULL, OPT_BUFSIZE },
		{ "find-timeout", required_argument, NULL, OPT_FINDTO },
		{ NULL, 0, NULL, 0 },
	};
	struct cli_node_opts no;
	struct session s;
	const char *server = NULL, *user = "GUEST";
	const char *pass = getenv("IPXLAB_NCP_PASSWORD");
	bool login = true, known = false;
	unsigned long bufsize = 4096;
	double findto = 3;
	struct ipx_addr addr;
	char found[48], as[IPX_ADDR_STRLEN];
	int opt, rc;

	memset(&s, 0, sizeof(s));
	cli_node_opts_init(&no);
	optind = 1;
	/* Options anywhere, as in the other commands; after `--` a path may
	 * start with '-'. */
	while ((opt = getopt_long(argc, argv, "s:u:p:vqh", longopts, NULL)) !=
	       -1) {
		switch (opt) {
		case 's':
			server = optarg;
			break;
		case 'u':
			user = optarg;
			break;
		case 'p':
			pass = optarg;
			break;
		case OPT_NOLOGIN:
			login = false;
			break;
		case OPT_BUFSIZE:
			if (cli_parse_uint("ncp", "--bufsize", optarg, 512, 4096,
					   &bufsize) < 0)
				return CLI_USAGE;
			break;
		case OPT_FINDTO:
			if (cli_parse_seconds("ncp", "--find-timeout", optarg,
					      0.1, 600, &findto) < 0)
				return CLI_USAGE;
			break;
		case 'h':
			cli_usage_line(stdout, "ncp");
			help_ncp(stdout);
			return CLI_OK;
		default:
			rc = cli_node_opt(&no, "ncp", opt, optarg);
			if (rc < 0)
				return CLI_USAGE;
			if (rc == 0) {
				cli_usage_line(stderr, "ncp");
				return CLI_USAGE;
			}
		}
	}
	if (optind >= argc) {
		cli_error("ncp", "needs a command: ls, get, put, rm, mkdir, "
				 "rmdir, mv, stat, info, whoami");
		return CLI_USAGE;
	}
	for (const char *const *c = commands; *c; c++)
		known |= !strcmp(*c, argv[optind]);
	if (!known) {
		cli_error("ncp", "unknown command '%s' (ls, get, put, rm, "
				 "mkdir, rmdir, mv, stat, info, whoami)",
			  argv[optind]);
		return CLI_USAGE;
	}
	if (check_args(argc - optind, argv + optind) != CLI_OK)
		return CLI_USAGE;
	if (strlen(user) == 0 || strlen(user) > 47 ||
	    (pass && strlen(pass) > 127)) {
		cli_error("ncp", "--user must be 1 to 47 characters and "
				 "--password at most 127");
		return CLI_USAGE;
	}
	rc = cli_node_open(&s.cn, &no);
	if (rc != CLI_OK)
		return rc;
	s.progress = isatty(STDERR_FILENO);
	rc = ipx_sap_new(s.cn.node, NULL, &s.sap);
	if (rc == IPX_OK)
		rc = ncp_client_new(s.cn.node, NULL, &s.cl);
	if (rc != IPX_OK) {
		cli_error("ncp", "cannot start: %s", ipx_strerror(rc));
		rc = CLI_FAIL;
		goto out;
	}
	rc = ncp_find_server(s.cl, s.sap, server,
			     (ipx_time)(findto * IPX_SEC), &addr, found);
	if (rc) {
		if (rc == NCP_E_NOSERVER)
			fprintf(stderr, "ipxlab ncp: no file server %s%sanswered "
					"within %.1f s\n",
				server ? server : "", server ? " " : "", findto);
		else
			fail("finding the server", NULL, rc);
		rc = CLI_FAIL;
		goto out;
	}
	if (ipx_log_get_level() >= IPX_LOG_DEBUG)
		fprintf(stderr, "ncp: server %s at %s\n", found,
			ipx_addr_format(&addr, as));
	rc = ncp_connect(s.cl, &addr);
	if (rc) {
		rc = fail("connecting to", found, rc);
		goto out;
	}
	if (login && (rc = ncp_login(s.cl, user, pass ? pass : ""))) {
		rc = fail("login as", user, rc);
		goto out;
	}
	rc = ncp_negotiate(s.cl, (uint16_t)bufsize);
	if (rc) {
		rc = fail("negotiating the buffer size", NULL, rc);
		goto out;
	}
	rc = run_command(&s, argc - optind, argv + optind);
out:
	ncp_client_free(s.cl);	/* destroys the connection */
	ipx_sap_free(s.sap);
	cli_node_close(&s.cn);
	return rc;
}
