/* ObjectMeta validation (apimachinery pkg/api/validation/objectmeta.go). */
#include "apiserver/validation.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "apiserver/defaults.h"
#include "core/alloc.h"
#include "core/sort.h"
#include "core/time.h"
#include "model/intstr.h"
#include "model/labels.h"
#include "model/labelvalid.h"
#include "model/quantity.h"
#include "model/selector.h"

/* ---- ObjectMeta (apimachinery pkg/api/validation/objectmeta.go) ---------------------------- */

/* maskTrailingDash (apimachinery pkg/api/validation/generic.go), quirk included */
static char *mask_trailing_dash(const char *s, size_t n, size_t *outn)
{
	char *r = dsi_strndup(s, n);
	*outn = n;
	if (r && n > 1 && s[n - 1] == '-') {
		r[n - 2] = 'a';
		r[n - 1] = '\0';
		*outn = n - 1;
	}
	return r;
}

/* schema.ParseGroupVersion: 0 ok (version set), -1 error */
static int parse_group_version(const char *s, size_t n, size_t *vlen)
{
	if (n == 0 || (n == 1 && s[0] == '/')) {
		*vlen = 0;
		return 0;
	}
	const char *slash = memchr(s, '/', n);
	if (!slash) {
		*vlen = n;
		return 0;
	}
	if (memchr(slash + 1, '/', n - (size_t)(slash - s) - 1))
		return -1;
	*vlen = n - (size_t)(slash - s) - 1;
	return 0;
}

/* An OwnerReference as json.Marshal writes it. */
static void marshal_owner_ref(dsi_strbuf *b, const json_t *r)
{
	static const char *const strs[] = {"apiVersion", "kind", "name", "uid"};
	dsi_strbuf_putc(b, '{');
	for (size_t i = 0; i < 4; i++) {
		json_t *v = json_object_get(r, strs[i]);
		dsi_strbuf_printf(b, "%s\"%s\":", i ? "," : "", strs[i]);
		dsi_go_json_string(b, json_is_string(v) ? json_string_value(v) : "",
				   json_is_string(v) ? json_string_length(v) : 0);
	}
	static const char *const bools[] = {"controller", "blockOwnerDeletion"};
	for (size_t i = 0; i < 2; i++) {
		json_t *v = json_object_get(r, bools[i]);
		if (json_is_boolean(v))
			dsi_strbuf_printf(b, ",\"%s\":%s", bools[i], json_is_true(v) ? "true" : "false");
	}
	dsi_strbuf_putc(b, '}');
}

/* ValidateOwnerReferences */
static int owner_references(dsi_vctx *c, const json_t *meta)
{
	json_t *refs;
	int rc = dsi_v_array(c, meta, "ownerReferences", &refs);
	if (rc < 0 || !refs)
		return rc;
	dsi_vmark m = dsi_v_child(c, "ownerReferences");
	const json_t *first_controller = NULL;
	for (size_t i = 0; rc == 0 && i < json_array_size(refs); i++) {
		json_t *r;
		const char *av, *kind, *name, *uid;
		size_t avn, kindn, namen, uidn;
		int ctrl = 0;
		dsi_vmark mi = dsi_v_index(c, i);
		if ((rc = dsi_v_elem_object(c, refs, i, &r)) < 0 ||
		    (rc = dsi_v_string(c, r, "apiVersion", &av, &avn)) < 0 ||
		    (rc = dsi_v_string(c, r, "kind", &kind, &kindn)) < 0 ||
		    (rc = dsi_v_string(c, r, "name", &name, &namen)) < 0 ||
		    (rc = dsi_v_string(c, r, "uid", &uid, &uidn)) < 0 ||
		    (rc = dsi_v_bool(c, r, "controller", &ctrl, NULL)) < 0 ||
		    (rc = dsi_v_bool(c, r, "blockOwnerDeletion", &(int){0}, NULL)) < 0) {
			dsi_v_pop(c, mi);
			break;
		}
		/* validateOwnerReference */
		size_t vlen = 0;
		int gverr = parse_group_version(av, avn, &vlen);
		if (!avn)
			dsi_v_required(c, "apiVersion", "must not be empty");
		else if (gverr < 0 || vlen == 0)
			dsi_v_str(c, "apiVersion", DSI_FE_INVALID, av, avn, "must be <group>/<version> or <version>");
		if (!kindn)
			dsi_v_required(c, "kind", "must not be empty");
		if (!namen)
			dsi_v_required(c, "name", "must not be empty");
		if (!uidn)
			dsi_v_required(c, "uid", "must not be empty");
		/* BannedOwners: v1 Event (a malformed apiVersion parses as the empty GroupVersion) */
		if (gverr == 0 && dsi_streq_lit(av, avn, "v1") && dsi_streq_lit(kind, kindn, "Event")) {
			dsi_strbuf b = DSI_STRBUF_INIT;
			marshal_owner_ref(&b, r);
			dsi_v_add(c, NULL, DSI_FE_INVALID, json_deep_copy(r), b.data,
				  "/v1, Kind=Event is disallowed from being an owner");
			dsi_strbuf_free(&b);
		}
		dsi_v_pop(c, mi);
		if (ctrl) {
			if (first_controller) {
				json_t *fk = json_object_get(first_controller, "kind"),
				       *fn = json_object_get(first_controller, "name");
				dsi_strbuf d = DSI_STRBUF_INIT, b = DSI_STRBUF_INIT;
				dsi_strbuf_puts(&d, "Only one reference can have Controller set to true. Found "
						    "\"true\" in references for ");
				dsi_strbuf_printf(&d, "%s/%s and ", json_is_string(fk) ? json_string_value(fk) : "",
						  json_is_string(fn) ? json_string_value(fn) : "");
				dsi_strbuf_append(&d, kind, kindn);
				dsi_strbuf_putc(&d, '/');
				dsi_strbuf_append(&d, name, namen);
				dsi_strbuf_putc(&b, '[');
				for (size_t j = 0; j < json_array_size(refs); j++) {
					if (j)
						dsi_strbuf_putc(&b, ',');
					marshal_owner_ref(&b, json_array_get(refs, j));
				}
				dsi_strbuf_putc(&b, ']');
				dsi_v_add(c, NULL, DSI_FE_INVALID, json_deep_copy(refs), b.data, d.data);
				dsi_strbuf_free(&d);
				dsi_strbuf_free(&b);
			} else {
				first_controller = r;
			}
		}
	}
	dsi_v_pop(c, m);
	return rc;
}

static int is_standard_finalizer(const char *s, size_t n)
{
	return dsi_streq_lit(s, n, "kubernetes") || dsi_streq_lit(s, n, "orphan") ||
	       dsi_streq_lit(s, n, "foregroundDeletion");
}

/* ValidateFinalizers (apimachinery) then validateKubeFinalizerName (pkg/apis/core/validation) */
static int finalizers(dsi_vctx *c, const json_t *meta)
{
	json_t *fins;
	int rc = dsi_v_array(c, meta, "finalizers", &fins);
	if (rc < 0 || !fins)
		return rc;
	dsi_vmark m = dsi_v_child(c, "finalizers");
	int orphan = 0, foreground = 0;
	for (size_t i = 0; i < json_array_size(fins); i++) {
		const char *s;
		size_t n;
		dsi_vmark mi = dsi_v_index(c, i);
		rc = dsi_v_elem_string(c, fins, i, &s, &n);
		dsi_v_pop(c, mi);
		if (rc < 0)
			break;
		dsi_v_label_name(c, NULL, s, n);
		orphan |= dsi_streq_lit(s, n, "orphan");
		foreground |= dsi_streq_lit(s, n, "foregroundDeletion");
	}
	if (rc == 0 && orphan && foreground)
		dsi_v_json(c, NULL, DSI_FE_INVALID, json_deep_copy(fins),
			   "finalizer orphan and foregroundDeletion cannot be both set");
	for (size_t i = 0; rc == 0 && i < json_array_size(fins); i++) {
		json_t *f = json_array_get(fins, i);
		const char *s = json_is_string(f) ? json_string_value(f) : "";
		size_t n = json_is_string(f) ? json_string_length(f) : 0;
		if (!memchr(s, '/', n) && !is_standard_finalizer(s, n)) {
			dsi_vmark mi = dsi_v_index(c, i);
			dsi_v_str(c, NULL, DSI_FE_INVALID, s, n,
				  "name is neither a standard finalizer name nor is it fully qualified");
			dsi_v_pop(c, mi);
		}
	}
	dsi_v_pop(c, m);
	return rc;
}

/* ValidateObjectMeta (pkg/apis/core/validation, apimachinery ValidateObjectMetaAccessor) with NameIsDNSSubdomain */
int dsi_v_object_meta_create(dsi_vctx *c, const json_t *meta)
{
	const char *name, *gen, *ns;
	size_t namen, genn, nsn;
	int64_t generation;
	int rc;
	if ((rc = dsi_v_string(c, meta, "name", &name, &namen)) < 0 ||
	    (rc = dsi_v_string(c, meta, "generateName", &gen, &genn)) < 0 ||
	    (rc = dsi_v_string(c, meta, "namespace", &ns, &nsn)) < 0 ||
	    (rc = dsi_v_int64(c, meta, "generation", &generation, NULL)) < 0)
		return rc;
	if (genn) {
		size_t mn;
		char *masked = mask_trailing_dash(gen, genn, &mn);
		if (!masked)
			return dsi_error_nomem(c->rd.err);
		dsi_strbuf msgs = DSI_STRBUF_INIT;
		if (dsi_validate_dns1123_subdomain(masked, mn, &msgs))
			dsi_v_each_message(c, "generateName", 0, gen, genn, msgs.data);
		dsi_strbuf_free(&msgs);
		dsi_free(masked);
	}
	if (!namen)
		dsi_v_required(c, "name", "name or generateName is required");
	else
		dsi_v_dns_subdomain(c, "name", name, namen);
	if (!nsn)
		dsi_v_required(c, "namespace", "");
	else
		dsi_v_dns_label(c, "namespace", ns, nsn);
	dsi_v_nonnegative(c, "generation", generation);
	if ((rc = dsi_v_labels(c, meta, "labels", "labels")) < 0 ||
	    (rc = dsi_v_annotations(c, meta, "annotations", "annotations", NULL)) < 0 ||
	    (rc = owner_references(c, meta)) < 0)
		return rc;
	return finalizers(c, meta);
}

/* metav1.Time as decoded: absent/null = the zero time. Returns 0 and *set. */
static int read_time(dsi_vctx *c, const json_t *meta, const char *key, ds_time *t, int *set)
{
	const char *s;
	size_t n;
	*set = 0;
	*t = 0;
	int rc = dsi_v_string(c, meta, key, &s, &n);
	if (rc < 0 || !n)
		return rc;
	ds_error tmp;
	if (dsi_time_parse(s, strlen(s), t, &tmp) < 0)
		return dsi_rd_fail(&c->rd, key, DS_EVALUE, "%s", tmp.message);
	*set = 1;
	return 0;
}

/* metav1.Time as json.Marshal writes it: RFC 3339 in UTC, whole seconds; "null" for the zero time */
static void time_shown(dsi_strbuf *b, json_t **val, ds_time t, int set)
{
	if (!set) {
		dsi_strbuf_puts(b, "null");
		*val = json_null();
		return;
	}
	ds_time whole = t - ((t % 1000) + 1000) % 1000;
	char buf[40];
	dsi_time_format(whole, buf, sizeof(buf));
	dsi_strbuf_printf(b, "\"%s\"", buf);
	*val = json_string(buf);
}

static int str_eq(const char *a, size_t an, const char *b, size_t bn) { return an == bn && memcmp(a, b, an) == 0; }

/* ValidateImmutableField on a metav1.Time (creationTimestamp, deletionTimestamp): the new value shown. */
static void time_immutable(dsi_vctx *c, const char *field, ds_time t, int set, ds_time old, int old_set)
{
	if (set == old_set && t == old)
		return;
	dsi_strbuf b = DSI_STRBUF_INIT;
	json_t *v;
	time_shown(&b, &v, t, set);
	dsi_v_add(c, field, DSI_FE_INVALID, v, b.data, IMMUTABLE_MSG);
	dsi_strbuf_free(&b);
}

/* ValidateObjectMetaAccessorUpdate (apimachinery pkg/api/validation/objectmeta.go) + validateKubeFinalizerName */
int dsi_v_object_meta_update(dsi_vctx *c, const json_t *meta, const json_t *old)
{
	const char *rv, *name, *oname, *ns, *ons, *uid, *ouid, *dummy;
	size_t rvn, namen, onamen, nsn, onsn, uidn, ouidn, dn;
	int64_t gen, ogen, grace = 0, ograce = 0;
	int has_grace, ohas_grace, rc;
	ds_time ct, oct, dt, odt;
	int ct_set, oct_set, dt_set, odt_set;
	/* the old object is read through the same checks (it was stored, so it decodes) */
	if ((rc = dsi_v_string(c, meta, "resourceVersion", &rv, &rvn)) < 0 ||
	    (rc = dsi_v_string(c, meta, "name", &name, &namen)) < 0 ||
	    (rc = dsi_v_string(c, meta, "namespace", &ns, &nsn)) < 0 ||
	    (rc = dsi_v_string(c, meta, "uid", &uid, &uidn)) < 0 ||
	    (rc = dsi_v_string(c, meta, "generateName", &dummy, &dn)) < 0 ||
	    (rc = dsi_v_int64(c, meta, "generation", &gen, NULL)) < 0 ||
	    (rc = dsi_v_int64(c, meta, "deletionGracePeriodSeconds", &grace, &has_grace)) < 0 ||
	    (rc = read_time(c, meta, "creationTimestamp", &ct, &ct_set)) < 0 ||
	    (rc = read_time(c, meta, "deletionTimestamp", &dt, &dt_set)) < 0)
		return rc;
	/* the old object's fields, with paths under "(old)" */
	dsi_rd saved = c->rd;
	dsi_rd_init(&c->rd, saved.err);
	dsi_rd_push(&c->rd, "(old)");
	dsi_rd_push(&c->rd, "metadata");
	rc = 0;
	if ((rc = dsi_v_string(c, old, "name", &oname, &onamen)) < 0 ||
	    (rc = dsi_v_string(c, old, "namespace", &ons, &onsn)) < 0 ||
	    (rc = dsi_v_string(c, old, "uid", &ouid, &ouidn)) < 0 ||
	    (rc = dsi_v_int64(c, old, "generation", &ogen, NULL)) < 0 ||
	    (rc = dsi_v_int64(c, old, "deletionGracePeriodSeconds", &ograce, &ohas_grace)) < 0 ||
	    (rc = read_time(c, old, "creationTimestamp", &oct, &oct_set)) < 0 ||
	    (rc = read_time(c, old, "deletionTimestamp", &odt, &odt_set)) < 0) {
		c->rd = saved;
		return rc;
	}
	c->rd = saved;
	/* ValidateNoNewFinalizers when the old object is being deleted */
	if (odt_set) {
		json_t *nf, *of;
		if ((rc = dsi_v_array(c, meta, "finalizers", &nf)) < 0)
			return rc;
		of = json_object_get(old, "finalizers");
		json_t *extra = json_array();
		for (size_t i = 0; extra && i < json_array_size(nf); i++) {
			json_t *f = json_array_get(nf, i);
			if (!json_is_string(f))
				continue;
			int found = 0;
			for (size_t j = 0; !found && j < json_array_size(of); j++)
				found = json_equal(f, json_array_get(of, j));
			for (size_t j = 0; !found && j < json_array_size(extra); j++)
				found = json_equal(f, json_array_get(extra, j));
			if (!found)
				json_array_append(extra, f);
		}
		if (!extra)
			return dsi_error_nomem(c->rd.err);
		if (json_array_size(extra)) {
			/* sets.String.List() sorts; %#v of []string */
			size_t n = json_array_size(extra);
			kv *items = dsi_calloc(n, sizeof(kv));
			if (!items) {
				json_decref(extra);
				return dsi_error_nomem(c->rd.err);
			}
			for (size_t i = 0; i < n; i++) {
				items[i].k = json_string_value(json_array_get(extra, i));
				items[i].n = json_string_length(json_array_get(extra, i));
			}
			dsi_sort_stable(items, n, sizeof(kv), dsi_kv_cmp, NULL);
			dsi_strbuf d = DSI_STRBUF_INIT;
			dsi_strbuf_puts(&d, "no new finalizers can be added if the object is being deleted, found new "
					    "finalizers []string{");
			for (size_t i = 0; i < n; i++) {
				if (i)
					dsi_strbuf_puts(&d, ", ");
				dsi_go_quote(&d, items[i].k, items[i].n);
			}
			dsi_strbuf_putc(&d, '}');
			dsi_v_forbidden(c, "finalizers", d.data);
			dsi_strbuf_free(&d);
			dsi_free(items);
		}
		json_decref(extra);
	}
	if (!rvn)
		dsi_v_str(c, "resourceVersion", DSI_FE_INVALID, rv, rvn, "must be specified for an update");
	dsi_v_nonnegative(c, "generation", gen);
	if (gen < ogen)
		dsi_v_int(c, "generation", DSI_FE_INVALID, gen, "must not be decremented");
	if (!str_eq(name, namen, oname, onamen))
		dsi_v_str(c, "name", DSI_FE_INVALID, name, namen, IMMUTABLE_MSG);
	if (!str_eq(ns, nsn, ons, onsn))
		dsi_v_str(c, "namespace", DSI_FE_INVALID, ns, nsn, IMMUTABLE_MSG);
	if (!str_eq(uid, uidn, ouid, ouidn))
		dsi_v_named(c, "uid", DSI_FE_INVALID, uid, uidn, IMMUTABLE_MSG);
	time_immutable(c, "creationTimestamp", ct, ct_set, oct, oct_set);
	time_immutable(c, "deletionTimestamp", dt, dt_set, odt, odt_set);
	if (has_grace != ohas_grace || grace != ograce) {
		if (has_grace)
			dsi_v_json(c, "deletionGracePeriodSeconds", DSI_FE_INVALID, json_integer(grace), IMMUTABLE_MSG);
		else
			dsi_v_add(c, "deletionGracePeriodSeconds", DSI_FE_INVALID, json_null(), "null", IMMUTABLE_MSG);
	}
	if ((rc = dsi_v_labels(c, meta, "labels", "labels")) < 0 ||
	    (rc = dsi_v_annotations(c, meta, "annotations", "annotations", NULL)) < 0 ||
	    (rc = owner_references(c, meta)) < 0)
		return rc;
	/* validateKubeFinalizerName on each new finalizer */
	json_t *fins;
	if ((rc = dsi_v_array(c, meta, "finalizers", &fins)) < 0)
		return rc;
	dsi_vmark m = dsi_v_child(c, "finalizers");
	for (size_t i = 0; rc == 0 && i < json_array_size(fins); i++) {
		const char *s;
		size_t n;
		dsi_vmark mi = dsi_v_index(c, i);
		rc = dsi_v_elem_string(c, fins, i, &s, &n);
		if (rc == 0 && !memchr(s, '/', n) && !is_standard_finalizer(s, n))
			dsi_v_str(c, NULL, DSI_FE_INVALID, s, n,
				  "name is neither a standard finalizer name nor is it fully qualified");
		dsi_v_pop(c, mi);
	}
	dsi_v_pop(c, m);
	return rc;
}
