/* The driver's lifetime, its work queue as the host sees it, and the expectations report. */
#include <stddef.h>
#include <string.h>

#include "controller/controller.h"
#include "controller/expectations.h"
#include "controller/queue.h"
#include "core/sized.h"
#include "core/alloc.h"

/* controller.KeyFunc (cache.MetaNamespaceKeyFunc) */
char *dsi_ctrl_key(const char *ns, const char *name)
{
	size_t nl = ns ? strlen(ns) : 0, ml = strlen(name);
	char *k = dsi_malloc(nl + ml + 2);
	if (!k)
		return NULL;
	if (nl) {
		memcpy(k, ns, nl);
		k[nl++] = '/';
	}
	memcpy(k + nl, name, ml + 1);
	return k;
}

int dsi_ctrl_init(dsi_controller *c, const ds_transport *tp, const dsi_ctrl_settings *set,
		  const ds_controller_config *cfg, ds_error *err)
{
	memset(c, 0, sizeof(*c));
	/* the host's table may be older (smaller) than ours: the rest stays NULL */
	size_t n = tp->size < sizeof(c->tp) ? tp->size : sizeof(c->tp);
	memcpy(&c->tp, tp, n);
	c->tp.size = sizeof(c->tp);
	c->core = *set->core;
	c->model = *set->model;
	c->ctrl = *set->ctrl;
	if (dsi_opt_copy(&dsi_daemon_option_table, &c->daemon, set->daemon) < 0)
		return dsi_error_nomem(err);
	c->sync_cfg.core = &c->core;
	c->sync_cfg.daemon = &c->daemon;
	c->retry_base_ms = 5;
	c->retry_max_ms = 1000 * 1000;
	const char *component = "daemonset-controller";
	if (cfg) {
		if (DSI_SIZE_COVERS(cfg, ds_controller_config, retry_base_ms) && cfg->retry_base_ms > 0)
			c->retry_base_ms = cfg->retry_base_ms;
		if (DSI_SIZE_COVERS(cfg, ds_controller_config, retry_max_ms) && cfg->retry_max_ms > 0)
			c->retry_max_ms = cfg->retry_max_ms;
		if (DSI_SIZE_COVERS(cfg, ds_controller_config, component) && cfg->component)
			component = cfg->component;
		if (cfg->namespace_ && *cfg->namespace_ && !(c->ns_filter = dsi_strdup(cfg->namespace_)))
			return dsi_error_nomem(err);
	}
	if (c->retry_max_ms < c->retry_base_ms)
		c->retry_max_ms = c->retry_base_ms;
	dsi_dstable_init(&c->table);
	c->component = dsi_strdup(component);
	c->cluster = dsi_calloc(1, sizeof(*c->cluster));
	if (!c->component || !c->cluster || dsi_cluster_init(c->cluster, &c->core, &c->model) < 0) {
		dsi_free(c->cluster);
		c->cluster = NULL;
		dsi_ctrl_destroy(c);
		return dsi_error_nomem(err);
	}
	dsi_loop_init(c);
	return 0;
}

void dsi_ctrl_destroy(dsi_controller *c)
{
	if (c->cluster) {
		dsi_cluster_destroy(c->cluster);
		dsi_free(c->cluster);
	}
	dsi_dstable_free(&c->table);
	dsi_free(c->ns_filter);
	dsi_free(c->component);
	dsi_opt_free(&dsi_daemon_option_table, &c->daemon);
	json_decref(c->call_log);
	dsi_loop_destroy(&c->loop);
	memset(c, 0, sizeof(*c));
}

static int seen_key(char **keys, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(keys[i], key) == 0)
			return 1;
	return 0;
}

/* processNextWorkItem (daemon_controller.go) in a loop, over what is due now, each key once. */
int dsi_ctrl_run(dsi_controller *c, ds_time now, int64_t *wait_ms, json_t **out, dsi_sync_fn fn, void *ctx,
		 ds_error *err)
{
	if (out && !(*out = json_array()))
		return dsi_error_nomem(err);
	int synced = 0, rc = 0;
	char **keys = NULL; /* synced in this run: a sync may queue its key again (for later) */
	size_t nkeys = 0, cap = 0;
	for (;;) {
		dsi_dsstate *s = dsi_queue_first(&c->table);
		if (!s || dsi_queue_due(s) > now || seen_key(keys, nkeys, s->key))
			break;
		char *key = dsi_strdup(s->key);
		if (!key || DSI_GROW(keys, cap, nkeys + 1) < 0) {
			dsi_free(key);
			rc = dsi_error_nomem(err);
			break;
		}
		keys[nkeys++] = key;
		dsi_queue_take(s, now);
		char *ns = dsi_strdup(key); /* "ns/name" split in a copy: key stays whole */
		if (!ns) {
			rc = dsi_error_nomem(err);
			break;
		}
		char *slash = strchr(ns, '/');
		const char *name = ns;
		if (slash) {
			*slash = '\0';
			name = slash + 1;
		}
		json_t *doc = NULL;
		dsi_sync_report rep;
		rc = dsi_ctrl_sync(c, slash ? ns : "", name, now, &rep, out ? &doc : NULL, err);
		dsi_free(ns);
		if (rc < 0)
			break;
		if (fn)
			rc = fn(ctx, key, &rep, err);
		dsi_sync_report_release(&rep);
		if (rc == 0 && out) {
			if (json_array_append_new(*out, doc))
				rc = dsi_error_nomem(err);
		} else {
			json_decref(doc);
		}
		if (rc < 0)
			break;
		synced++;
	}
	for (size_t i = 0; i < nkeys; i++)
		dsi_free(keys[i]);
	dsi_free(keys);
	if (rc < 0) {
		if (out) {
			json_decref(*out);
			*out = NULL;
		}
		return rc;
	}
	if (wait_ms)
		*wait_ms = dsi_queue_wait(&c->table, now);
	return synced;
}

json_t *dsi_ctrl_expectations(const dsi_controller *c, const char *key, ds_time now)
{
	const dsi_dsstate *s = dsi_dstable_get(&c->table, key);
	int64_t timeout = c->ctrl.expectations_timeout_ms;
	int set = s && s->exp_set;
	return json_pack("{s:s, s:b, s:I, s:I, s:b, s:b}", "key", key, "set", set, "add",
			 (json_int_t)(set ? s->exp_add : 0), "del", (json_int_t)(set ? s->exp_del : 0), "satisfied",
			 dsi_exp_satisfied(s, now, timeout), "expired", set && dsi_exp_expired(s, now, timeout));
}
