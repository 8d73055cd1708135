/*
 * test_drops.c - the drop-counter names (ipxlab/priv/drops.h): the macro
 * on a list of its own, then every module's accessor made with it, each
 * giving its list's names in order and "?" at and past the count, so the
 * "drop_NAME" keys of the stats printouts stay what they are.
 */
#include "cm.h"

#include <string.h>

#include "ipxlab/analyze.h"
#include "ipxlab/bridge.h"
#include "ipxlab/diag.h"
#include "ipxlab/hub.h"
#include "ipxlab/ncp_client.h"
#include "ipxlab/ncp_server.h"
#include "ipxlab/netbios.h"
#include "ipxlab/node.h"
#include "ipxlab/ping.h"
#include "ipxlab/priv/drops.h"
#include "ipxlab/priv/link_medium.h"
#include "ipxlab/rip.h"
#include "ipxlab/sap.h"
#include "ipxlab/spx.h"
#include "ipxlab/wan.h"

#define TEST_DROPS(X)                                                       \
	X(SHORT, "short", "shorter than a header")                          \
	X(LONG, "long", "longer than it says")                              \
	X(ODD, "odd", "neither")
#define TEST_DROP_ENUM_(id, name, desc) TEST_DROP_##id,
enum test_drop { TEST_DROPS(TEST_DROP_ENUM_) TEST_DROP_COUNT };
#undef TEST_DROP_ENUM_

const char *test_drop_name(enum test_drop d);
IPX_DROP_NAMES(TEST_DROPS, enum test_drop, TEST_DROP_COUNT, test_drop_name)

static void the_macro_names_in_order_and_refuses_past_the_end(void **state)
{
	(void)state;
	assert_string_equal(test_drop_name(TEST_DROP_SHORT), "short");
	assert_string_equal(test_drop_name(TEST_DROP_LONG), "long");
	assert_string_equal(test_drop_name(TEST_DROP_ODD), "odd");
	assert_string_equal(test_drop_name(TEST_DROP_COUNT), "?");
	assert_string_equal(test_drop_name((enum test_drop)-1), "?");
	assert_ptr_equal(drop_names[1], test_drop_name(TEST_DROP_LONG));
}

/* Each module's accessor against the names of its own list. */
#define CHECK_MODULE(list, type, count, fn)                                 \
	do {                                                                \
		static const char *const want[] = { list(IPX_DROP_NAME_) }; \
		assert_int_equal(sizeof want / sizeof want[0], (count));    \
		for (unsigned i = 0; i < (count); i++)                      \
			assert_string_equal(fn((type)i), want[i]);          \
		assert_string_equal(fn((type)(count)), "?");                \
		assert_string_equal(fn((type)((count) + 1000)), "?");       \
	} while (0)

static void every_module_names_its_own_list(void **state)
{
	(void)state;
	CHECK_MODULE(IPX_DROPS, enum ipx_drop, IPX_DROP_COUNT, ipx_drop_name);
	CHECK_MODULE(IPX_MEDIUM_DROPS, enum ipx_medium_drop,
		     IPX_MEDIUM_DROP_COUNT, ipx_medium_drop_name);
	CHECK_MODULE(SPX_DROPS, enum spx_drop, SPX_DROP_COUNT, spx_drop_name);
	CHECK_MODULE(NB_DROPS, enum nb_drop, NB_DROP_COUNT, nb_drop_name);
	CHECK_MODULE(IPX_RIP_DROPS, enum ipx_rip_drop, IPX_RIP_DROP_COUNT,
		     ipx_rip_drop_name);
	CHECK_MODULE(IPX_SAP_DROPS, enum ipx_sap_drop, IPX_SAP_DROP_COUNT,
		     ipx_sap_drop_name);
	CHECK_MODULE(IPX_DIAG_DROPS, enum ipx_diag_drop, IPX_DIAG_DROP_COUNT,
		     ipx_diag_drop_name);
	CHECK_MODULE(IPX_PING_DROPS, enum ipx_ping_drop, IPX_PING_DROP_COUNT,
		     ipx_ping_drop_name);
	CHECK_MODULE(NCP_CLI_DROPS, enum ncp_cli_drop, NCP_CLI_DROP_COUNT,
		     ncp_cli_drop_name);
	CHECK_MODULE(NCP_SRV_DROPS, enum ncp_srv_drop, NCP_SRV_DROP_COUNT,
		     ncp_srv_drop_name);
	CHECK_MODULE(IPX_HUB_DROPS, enum ipx_hub_drop, IPX_HUB_DROP_COUNT,
		     ipx_hub_drop_name);
	CHECK_MODULE(IPX_BRIDGE_DROPS, enum ipx_bridge_drop,
		     IPX_BRIDGE_DROP_COUNT, ipx_bridge_drop_name);
	CHECK_MODULE(IPX_WAN_DROPS, enum ipx_wan_drop, IPX_WAN_DROP_COUNT,
		     ipx_wan_drop_name);
	CHECK_MODULE(IPX_ANALYZE_DROPS, enum ipx_analyze_drop,
		     IPX_ANALYZE_DROP_COUNT, ipx_analyze_drop_name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_macro_names_in_order_and_refuses_past_the_end),
		cmocka_unit_test(every_module_names_its_own_list),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
