/* Public ds_options (include/daemonset/common.h): the settings of every layer under their public names. */
#include "api/api_options.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/args.h"
#include "core/alloc.h"
#include "core/error.h"
#include "core/load.h"
#include "daemonset.h"

/* The layers whose settings ds_options holds, in the order ds_options(3) lists them. */
static const struct layer {
	const dsi_opt_table *t;
	size_t offset; /* of the layer's struct in ds_options */
} layers[] = {
	{&dsi_core_option_table, offsetof(ds_options, core)},
	{&dsi_model_option_table, offsetof(ds_options, model)},
	{&dsi_apiserver_option_table, offsetof(ds_options, apiserver)},
	{&dsi_sched_option_table, offsetof(ds_options, sched)},
	{&dsi_daemon_option_table, offsetof(ds_options, daemon)},
	{&dsi_ctrl_option_table, offsetof(ds_options, ctrl)},
	{&dsi_ops_option_table, offsetof(ds_options, ops)},
	{&dsi_pss_option_table, offsetof(ds_options, pss)},
};

#define LAYER(o, l) ((void *)((char *)(o) + (l)->offset))
#define CLAYER(o, l) ((const void *)((const char *)(o) + (l)->offset))

static void free_all(ds_options *o)
{
	for (size_t i = 0; i < DSI_ARRAY_LEN(layers); i++)
		dsi_opt_free(layers[i].t, LAYER(o, &layers[i]));
}

/* dst = src (src NULL: the defaults), strings duplicated; on failure dst holds nothing to free. */
static int copy_all(ds_options *dst, const ds_options *src)
{
	for (size_t i = 0; i < DSI_ARRAY_LEN(layers); i++) {
		const void *from = src ? CLAYER(src, &layers[i]) : layers[i].t->defaults;
		if (dsi_opt_copy(layers[i].t, LAYER(dst, &layers[i]), from) < 0) {
			for (size_t j = 0; j < i; j++)
				dsi_opt_free(layers[j].t, LAYER(dst, &layers[j]));
			return -1;
		}
	}
	return 0;
}

/* The layer and definition of a public name. */
static const dsi_opt_def *find(const char *name, const struct layer **layer)
{
	for (size_t i = 0; i < DSI_ARRAY_LEN(layers); i++) {
		const dsi_opt_def *d = dsi_opt_find(layers[i].t, name);
		if (d) {
			*layer = &layers[i];
			return d;
		}
	}
	return NULL;
}

const char *dsi_options_name(size_t i)
{
	for (size_t l = 0; l < DSI_ARRAY_LEN(layers); l++) {
		if (i < layers[l].t->n)
			return layers[l].t->defs[i].name;
		i -= layers[l].t->n;
	}
	return NULL;
}

int dsi_options_dup(const ds_options *src, ds_options **out)
{
	*out = NULL;
	ds_options *o = dsi_calloc(1, sizeof(*o));
	if (!o || copy_all(o, src) < 0) {
		dsi_free(o);
		return DS_ENOMEM;
	}
	*out = o;
	return 0;
}

int ds_options_create(ds_options **out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, out);
	return dsi_options_dup(NULL, out) < 0 ? dsi_error_nomem(err) : 0;
}

int ds_options_new(ds_options **out) { return ds_options_create(out, NULL); }

void ds_options_free(ds_options *opts)
{
	if (!opts)
		return;
	free_all(opts);
	dsi_free(opts);
}

static int unknown(ds_error *err, const char *name)
{
	return dsi_error_set(err, DS_EARG, name, "unknown option \"%s\" (see ds_options(3))", name);
}

int ds_options_set(ds_options *opts, const char *name, const char *value, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, opts, name, value);
	const struct layer *l;
	const dsi_opt_def *d = find(name, &l);
	return d ? dsi_opt_set(d, LAYER(opts, l), value, err) : unknown(err, name);
}

/* One member of the JSON object: a scalar as its text; an object or array (a selector) for a string
 * option as compact JSON. */
static int set_member(ds_options *work, const char *k, json_t *v, ds_error *err)
{
	const struct layer *l;
	const dsi_opt_def *d = find(k, &l);
	if (!d)
		return unknown(err, k);
	char buf[64];
	if (json_is_string(v))
		return dsi_opt_set(d, LAYER(work, l), json_string_value(v), err);
	if (json_is_integer(v)) {
		snprintf(buf, sizeof(buf), "%lld", (long long)json_integer_value(v));
		return dsi_opt_set(d, LAYER(work, l), buf, err);
	}
	if (json_is_boolean(v))
		return dsi_opt_set(d, LAYER(work, l), json_is_true(v) ? "true" : "false", err);
	if ((json_is_object(v) || json_is_array(v)) && d->type == DSI_OPT_STRING) {
		char *dumped = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS);
		if (!dumped)
			return dsi_error_nomem(err);
		int rc = dsi_opt_set(d, LAYER(work, l), dumped, err);
		free(dumped);
		return rc;
	}
	return dsi_error_set(err, DS_ETYPE, k, "expected a string, integer or boolean, got %s",
			     json_is_null(v)   ? "null"
			     : json_is_real(v) ? "a fraction"
					       : "a structure");
}

int ds_options_set_all(ds_options *opts, const char *text, size_t size, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, opts);
	DSI_ARG_DOC(err, text, size);
	size_t i = 0;
	while (i < size && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
		i++;
	json_t *root;
	if (i < size && text[i] == '{') { /* JSON, where a repeated name is an error */
		int rc = dsi_json_loadb(text, size, JSON_REJECT_DUPLICATES, NULL, "", &root, err);
		if (rc < 0)
			return rc;
	} else { /* YAML: "burstReplicas: 50" */
		int rc = dsi_parse_one(text ? text : "", size, &dsi_core_options_default()->limits, &root, err);
		if (rc < 0)
			return rc;
	}
	if (!json_is_object(root)) {
		json_decref(root);
		return dsi_error_set(err, DS_ETYPE, NULL, "expected an object of options");
	}
	/* all or nothing: set on a copy, then take it */
	ds_options work;
	if (copy_all(&work, opts) < 0) {
		json_decref(root);
		return dsi_error_nomem(err);
	}
	int rc = 0;
	const char *k;
	json_t *v;
	json_object_foreach(root, k, v)
	{
		if ((rc = set_member(&work, k, v, err)) < 0)
			break;
	}
	json_decref(root);
	if (rc < 0) {
		free_all(&work);
		return rc;
	}
	free_all(opts);
	*opts = work;
	return 0;
}

int ds_options_get(const ds_options *opts, const char *name, char **out, ds_error *err)
{
	DSI_ERR_BEGIN(err);
	DSI_ARGS_NONNULL(err, name, out);
	*out = NULL;
	const struct layer *l;
	const dsi_opt_def *d = find(name, &l);
	if (!d)
		return unknown(err, name);
	dsi_strbuf b = DSI_STRBUF_INIT;
	dsi_opt_format(d, opts ? CLAYER(opts, l) : l->t->defaults, &b);
	*out = dsi_strbuf_detach(&b);
	return *out ? 0 : dsi_error_nomem(err);
}
