/* dsctl test: run scenario files and print N passed, N failed. */
#include <string.h>

#include "dsctl.h"

int cmd_test(ctx *c)
{
	if (c->argc < 1)
		return usage_error("test", "test needs scenario files or directories");
	int failed = 0, passed = 0;
	json_t *all = json_array();
	for (int i = 0; i < c->argc; i++) {
		char *text;
		ds_error err;
		if (ds_scenario_run_file(c->argv[i], c->opts, &text, &err) < 0)
			return fail("cannot run the scenarios", &err);
		json_t *doc = take_json(text);
		size_t k;
		json_t *s;
		if (!json_array_size(json_object_get(doc, "scenarios"))) {
			/* an empty file or directory tests nothing: that is not a pass */
			fprintf(stderr,
				"error: %s: no scenarios: a scenario file holds YAML documents with now: and checks: "
				"(daemonset-scenario(5)); a directory, such files\n",
				c->argv[i]);
			json_decref(doc);
			json_decref(all);
			return EXIT_ERROR;
		}
		json_array_foreach(json_object_get(doc, "scenarios"), k, s)
		{
			int ok = json_is_true(json_object_get(s, "passed"));
			json_array_append(all, s);
			ok ? passed++ : failed++;
			if (c->out != OUT_TABLE)
				continue;
			printf("%s%s%s %s (%s)\n", colour(c, ok ? "ok" : "bad"), ok ? "PASS" : "FAIL",
			       colour(c, "reset"), json_string_value(json_object_get(s, "name")),
			       json_string_value(json_object_get(s, "file")));
			if (json_object_get(s, "error"))
				printf("     error: %s\n", json_string_value(json_object_get(s, "error")));
			size_t j;
			json_t *chk;
			json_array_foreach(json_object_get(s, "checks"), j, chk)
			{
				size_t f;
				json_t *msg;
				json_array_foreach(json_object_get(chk, "failures"), f, msg)
					printf("     %s: %s\n", json_string_value(json_object_get(chk, "check")),
					       json_string_value(msg));
			}
		}
		json_decref(doc);
	}
	if (c->out != OUT_TABLE) {
		json_t *doc = json_pack("{s:i, s:i, s:o}", "passed", passed, "failed", failed, "scenarios", all);
		print_structured(c, doc);
		json_decref(doc);
	} else {
		json_decref(all);
		printf("%d passed, %d failed\n", passed, failed);
	}
	return failed ? EXIT_CHECK : EXIT_OK;
}
