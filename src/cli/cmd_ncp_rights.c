/*
 * cmd_ncp_rights.c - "ipxlab ncp rights [PATH]" (this connection's
 * effective rights there and, with Access Control, its trustees),
 * "ncp grant USER RIGHTS PATH" and "ncp revoke USER PATH".
 */
#include <string.h>

#include "cmd_ncp.h"

struct tr_ctx {
	struct ncp_client *cl;
	unsigned n;
};

static int print_trustee(const struct ncp_trustee_entry *e, void *ctx)
{
	struct tr_ctx *t = ctx;
	char name[64], r[16];

	if (ncp_user_name(t->cl, e->id, name, sizeof(name)))
		snprintf(name, sizeof(name), "%08X", (unsigned)e->id);
	ncp_rights_format(e->rights, r, sizeof(r));
	printf("trustee %-16s %s\n", name, r);
	t->n++;
	return 0;
}

static int do_rights(struct session *s, const char *path)
{
	struct tr_ctx t = { .cl = s->cl };
	uint16_t mine;
	char r[16];
	int rc;

	if (!path)
		path = "SYS:";
	rc = ncp_effective_rights(s->cl, path, &mine);
	if (rc)
		return ncpc_fail_path("rights", path, rc);
	ncp_rights_format(mine, r, sizeof(r));
	printf("path %s\neffective %s\n", path, r);
	rc = ncp_scan_trustees(s->cl, path, print_trustee, &t);
	if (rc == NCP_CC_NO_MODIFY)
		printf("trustees not shown (needs Access Control there)\n");
	else if (rc == NCP_CC_UNKNOWN_REQUEST)
		printf("trustees not kept by this server\n");
	else if (rc)
		return ncpc_fail_path("rights", path, rc);
	else if (!t.n)
		printf("trustees none\n");
	return CLI_OK;
}

static int do_grant(struct session *s, const char *user, const char *text,
		    const char *path)
{
	uint16_t rights;
	uint32_t id;
	int rc;

	if (ncp_rights_parse(text, &rights)) {
		cli_error("ncp", "grant: '%s' is not rights (letters of "
				 "SRWCEMFA, or - for none)", text);
		return CLI_USAGE;
	}
	rc = ncp_user_id(s->cl, user, &id);
	if (rc)
		return ncpc_fail("grant: user", user, rc);
	rc = ncp_add_trustee(s->cl, path, id, rights);
	return rc ? ncpc_fail_path("grant", path, rc) : CLI_OK;
}

static int do_revoke(struct session *s, const char *user, const char *path)
{
	uint32_t id;
	int rc = ncp_user_id(s->cl, user, &id);

	if (rc)
		return ncpc_fail("revoke: user", user, rc);
	rc = ncp_delete_trustee(s->cl, path, id);
	if (rc == NCP_CC_TIMEOUT) {	/* 0xFE: no such trustee */
		fprintf(stderr, "ipxlab ncp: revoke %s: %s is not a trustee "
				"there\n", path, user);
		return CLI_FAIL;
	}
	return rc ? ncpc_fail_path("revoke", path, rc) : CLI_OK;
}

int ncpc_rights(struct session *s, int argc, char **argv)
{
	if (!strcmp(argv[0], "grant"))
		return do_grant(s, argv[1], argv[2], argv[3]);
	if (!strcmp(argv[0], "revoke"))
		return do_revoke(s, argv[1], argv[2]);
	return do_rights(s, argc > 1 ? argv[1] : NULL);
}
