/*
 * The tree the results' writer (lib/apiserver/goemit.h) stands in for: a deep copy of the value, the
 * patch merged into it (dsi_go_merge), the caller's member set, dsi_go_encode, dsi_json_dumps
 * compact with keys sorted. A patch that is no object replaces the value; a member then goes into an
 * object of its own, as the writer puts it. Header-only, for the unit suites and the fuzz targets
 * alike.
 */
#ifndef DSI_TEST_GOTREE_H
#define DSI_TEST_GOTREE_H

#include <jansson.h>

#include "apiserver/goemit.h"
#include "apiserver/goencode.h"
#include "core/jsonout.h"

/* 0 with *text the tree's text (NULL where its dump fails; the library's to free), or -1 when
 * building the tree failed (no memory). */
static inline int dsi_test_go_tree(const json_t *v, const json_t *patch, const dsi_go_member *m, int type, char **text)
{
	json_t *t;
	*text = NULL;
	if (patch && !json_is_object(patch))
		t = m ? json_object() : json_deep_copy(patch);
	else if (patch || m)
		t = json_is_object(v) ? json_deep_copy(v) : json_object();
	else
		t = json_deep_copy(v);
	int rc = t && (!patch || !json_is_object(patch) || dsi_go_merge(t, patch) == 0) &&
				 (!m || json_object_set_new(t, m->key, m->json(m->ctx)) == 0) &&
				 dsi_go_encode(t, type) == 0
			 ? 0
			 : -1;
	if (rc == 0)
		*text = dsi_json_dumps(t, JSON_COMPACT | JSON_SORT_KEYS);
	json_decref(t);
	return rc;
}

#endif
