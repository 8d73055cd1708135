/*
 * cmd_ncp_ops.c - the commands of "ipxlab ncp" that are one call or a
 * listing: ls, stat, rm, mkdir, rmdir, mv, info, whoami; get and put are
 * sent on to their files.
 */
#include <string.h>

#include "cmd_ncp.h"

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
	ncp_path_split(path, dir, sizeof(dir), &name);
	if (*name && !strpbrk(name, "*?")) {
		struct ncp_entry e;

		/* A directory: its contents; else the one file. */
		rc = ncp_list(s->cl, path, NULL, print_entry, NULL);
		if (rc == NCP_CC_BAD_PATH) {
			int st = ncp_stat(s->cl, path, &e);

			if (st == 0 && !(e.attr & NCP_ATTR_DIRECTORY)) {
				print_entry(&e, NULL);
				return CLI_OK;
			}
			if (st == NCP_CC_FAILURE || st == NCP_CC_BAD_PATH)
				rc = st;	/* neither: not there */
		}
	} else {
		rc = ncp_list(s->cl, dir, *name ? name : NULL, print_entry,
			      NULL);
	}
	return rc ? ncpc_fail_path("ls", path, rc) : CLI_OK;
}

static int do_stat(struct session *s, const char *path)
{
	struct ncp_entry e;
	int rc = ncp_stat(s->cl, path, &e);

	if (rc)
		return ncpc_fail_path("stat", path, rc);
	printf("name %s\ntype %s\nsize %lu\nattributes %02X%s\n"
	       "modified %04u-%02u-%02u %02u:%02u:%02u\n",
	       e.name, e.attr & NCP_ATTR_DIRECTORY ? "directory" : "file",
	       (unsigned long)e.size, e.attr,
	       e.attr & NCP_ATTR_READ_ONLY ? " (read-only)" : "",
	       1980 + (e.date >> 9), (e.date >> 5) & 15, e.date & 31,
	       e.time >> 11, (e.time >> 5) & 63, (e.time & 31) * 2);
	return CLI_OK;
}

int ncpc_run(struct session *s, int argc, char **argv)
{
	const char *c = argv[0];
	int rc;

	if (!strcmp(c, "ls"))
		return do_ls(s, argc > 1 ? argv[1] : NULL);
	if (!strcmp(c, "get"))
		return ncpc_get(s, argv[1], argc > 2 ? argv[2] : NULL);
	if (!strcmp(c, "put"))
		return ncpc_put(s, argv[1], argc > 2 ? argv[2] : NULL);
	if (!strcmp(c, "send"))
		return ncpc_send(s, argv[1], argv[2]);
	if (!strcmp(c, "messages"))
		return ncpc_messages(s);
	if (!strcmp(c, "passwd"))
		return ncpc_passwd(s);
	if (!strcmp(c, "rights") || !strcmp(c, "grant") ||
	    !strcmp(c, "revoke"))
		return ncpc_rights(s, argc, argv);
	if (!strcmp(c, "rm"))
		rc = ncp_erase(s->cl, argv[1]);
	else if (!strcmp(c, "mkdir")) {
		struct ncp_entry e;

		rc = ncp_mkdir(s->cl, argv[1]);
		/* NetWare answers 0xFF for a name that is there */
		if (rc == NCP_CC_FAILURE && ncp_stat(s->cl, argv[1], &e) == 0) {
			fprintf(stderr, "ipxlab ncp: mkdir %s: exists (%s)\n",
				argv[1], e.attr & NCP_ATTR_DIRECTORY
						 ? "a directory"
						 : "a file");
			return CLI_FAIL;
		}
	} else if (!strcmp(c, "rmdir"))
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
	if (rc && argc > 1 && (!strcmp(c, "rm") || !strcmp(c, "rmdir") ||
			       !strcmp(c, "mkdir") || !strcmp(c, "mv")))
		return ncpc_fail_path(c, rc == NCP_CC_NAME_EXISTS ? argv[2] : argv[1],
				 rc);
	return rc ? ncpc_fail(c, argc > 1 ? argv[1] : NULL, rc) : CLI_OK;
}
