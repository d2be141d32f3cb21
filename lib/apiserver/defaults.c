/* The API server's defaults for apps/v1 DaemonSets and their pod templates. */
#include "apiserver/defaults.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core/reader.h"
#include "model/quantity.h"
#include "model/quantity_fields.h"

/* ---- the walk's state -------------------------------------------------------------------------- */

/* Every function here gets the dsi_rd of a dctx (on_spec makes it, its first member): the string
 * defaults it has made so far, each one value shared by every member that takes it (a DaemonSet
 * of 100,000 containers gets three values rather than 300,000; no one changes a JSON string in
 * place, and jansson counts references atomically). */
#define DEFAULT_STRINGS 24
typedef struct dctx {
	dsi_rd rd;
	const char *text[DEFAULT_STRINGS]; /* the literal each value was made of */
	json_t *value[DEFAULT_STRINGS];
	size_t n;
} dctx;

/* The value of a default string (a literal), a new reference; NULL without memory. */
static json_t *default_string(dsi_rd *rd, const char *text)
{
	dctx *c = (dctx *)(void *)rd;
	for (size_t i = 0; i < c->n; i++)
		if (c->text[i] == text)
			return json_incref(c->value[i]);
	json_t *v = json_string(text);
	if (v && c->n < DEFAULT_STRINGS) {
		c->text[c->n] = text;
		c->value[c->n++] = json_incref(v);
	}
	return v;
}

/* ---- small typed accessors: absent and null read as Go's zero value ----------------- */

static json_t *member(const json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);
	return (v && !json_is_null(v)) ? v : NULL;
}

/* The object member key; created ({}) when absent or null and create is set. */
static int obj_member(dsi_rd *rd, json_t *obj, const char *key, int create, json_t **out)
{
	json_t *v = member(obj, key);
	*out = NULL;
	if (v) {
		if (!json_is_object(v))
			return dsi_rd_fail(rd, key, DS_ETYPE, "expected object, got %s", dsi_json_type_name(v));
		*out = v;
		return 0;
	}
	if (!create)
		return 0;
	if (!(v = json_object()) || json_object_set_new(obj, key, v) < 0)
		return dsi_error_nomem(rd->err);
	*out = v;
	return 0;
}

static int set_new(dsi_rd *rd, json_t *obj, const char *key, json_t *v)
{
	if (!v || json_object_set_new(obj, key, v) < 0)
		return dsi_error_nomem(rd->err);
	return 0;
}

/* A Go string field: "" (or absent, or null) takes the default. */
static int def_string(dsi_rd *rd, json_t *obj, const char *key, const char *value)
{
	json_t *v = member(obj, key);
	if (v && !json_is_string(v))
		return dsi_rd_fail(rd, key, DS_ETYPE, "expected string, got %s", dsi_json_type_name(v));
	if (v && json_string_length(v))
		return 0;
	return set_new(rd, obj, key, default_string(rd, value));
}

/* A pointer field (*string, *int64, *bool, ...): only absent or null takes the default. */
static int def_pointer(dsi_rd *rd, json_t *obj, const char *key, json_t *value, int (*is)(const json_t *),
		       const char *want)
{
	json_t *v = member(obj, key);
	if (v) {
		json_decref(value);
		if (!is(v))
			return dsi_rd_fail(rd, key, DS_ETYPE, "expected %s, got %s", want, dsi_json_type_name(v));
		return 0;
	}
	return set_new(rd, obj, key, value);
}

static int is_string(const json_t *v) { return json_is_string(v); }
static int is_integer(const json_t *v) { return json_is_integer(v); }
static int is_boolean(const json_t *v) { return json_is_boolean(v); }

/* A non-pointer int32 field: 0 (or absent) takes the default. */
static int def_int_zero(dsi_rd *rd, json_t *obj, const char *key, json_int_t value)
{
	json_t *v = member(obj, key);
	if (v && !json_is_integer(v))
		return dsi_rd_fail(rd, key, DS_ETYPE, "expected integer, got %s", dsi_json_type_name(v));
	if (v && json_integer_value(v) != 0)
		return 0;
	return set_new(rd, obj, key, json_integer(value));
}

typedef int (*elem_fn)(dsi_rd *rd, json_t *elem);

/* Each element of the array member key (null elements become {} as Go decodes them). */
static int each_elem(dsi_rd *rd, json_t *obj, const char *key, elem_fn fn)
{
	json_t *arr = member(obj, key);
	if (!arr)
		return 0;
	if (!json_is_array(arr))
		return dsi_rd_fail(rd, key, DS_ETYPE, "expected array, got %s", dsi_json_type_name(arr));
	size_t m = dsi_rd_push(rd, key);
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < json_array_size(arr); i++) {
		json_t *e = json_array_get(arr, i);
		size_t m2 = dsi_rd_push_index(rd, i);
		if (json_is_null(e)) {
			if (!(e = json_object()) || json_array_set_new(arr, i, e) < 0)
				rc = dsi_error_nomem(rd->err);
		} else if (!json_is_object(e)) {
			rc = dsi_rd_fail(rd, NULL, DS_ETYPE, "expected object, got %s", dsi_json_type_name(e));
		}
		if (rc == 0)
			rc = fn(rd, e);
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	return rc;
}

/* Run fn on the object member key when it is present. */
static int with_obj(dsi_rd *rd, json_t *obj, const char *key, elem_fn fn)
{
	json_t *o;
	int rc = obj_member(rd, obj, key, 0, &o);
	if (rc < 0 || !o)
		return rc;
	size_t m = dsi_rd_push(rd, key);
	rc = fn(rd, o);
	dsi_rd_pop(rd, m);
	return rc;
}

/* ---- quantities -------------------------------------------------------------------- */

/* SetDefaults_ResourceList (pkg/apis/core/v1/defaults.go) on map, whose path is rd's: RoundUp to
 * milli scale, then each value as the API server serves it. */
static int round_and_serve(dsi_rd *rd, json_t *map)
{
	const char *name;
	json_t *v;
	int rc = 0;
	json_object_foreach(map, name, v)
	{
		if (json_is_null(v))
			continue;
		dsi_quantity q;
		size_t m2 = dsi_rd_push(rd, name);
		rc = dsi_quantity_from_json(rd, v, &q);
		dsi_rd_pop(rd, m2);
		if (rc < 0)
			return rc;
		if (q.exp >= -3)
			continue;
		/* Quantity.RoundUp(-3): a sub-milli precision rounds up to the next milli */
		int ovf = 0;
		int64_t milli = dsi_quantity_milli(&q, &ovf);
		if (ovf)
			continue; /* beyond int64 milli: left as is (upstream keeps an inf.Dec) */
		char text[48];
		snprintf(text, sizeof(text), q.format == DSI_QFMT_DECIMAL_EXPONENT ? "%" PRId64 "e-3" : "%" PRId64 "m",
			 milli);
		if (json_object_set_new(map, name, json_string(text)) < 0)
			return dsi_error_nomem(rd->err);
	}
	if ((rc = dsi_quantity_normalize_json(map, rd->err)) < 0)
		dsi_error_prefix_path(rd->err, rd->path);
	return rc;
}

/* A ResourceList member. */
static int resource_list(dsi_rd *rd, json_t *obj, const char *key)
{
	json_t *map = member(obj, key);
	if (!map)
		return 0;
	if (!json_is_object(map))
		return dsi_rd_fail(rd, key, DS_ETYPE, "expected an object of quantities, got %s",
				   dsi_json_type_name(map));
	size_t m = dsi_rd_push(rd, key);
	int rc = round_and_serve(rd, map);
	dsi_rd_pop(rd, m);
	return rc;
}

static int resource_requirements(dsi_rd *rd, json_t *res)
{
	int rc = resource_list(rd, res, "limits");
	return rc < 0 ? rc : resource_list(rd, res, "requests");
}

/* ---- image references (distribution/reference as parsers.ParseImageName uses it) ---- */

static int lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
static int alnum(char c) { return lower_alnum(c) || (c >= 'A' && c <= 'Z'); }
static int word(char c) { return alnum(c) || c == '_'; }
static int hexdig(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

/* pathComponent: [a-z0-9]+ ((?:[._]|__|[-]+)[a-z0-9]+)* */
static int path_component_ok(const char *s, size_t n)
{
	size_t i = 0;
	if (!n || !lower_alnum(s[0]))
		return 0;
	while (i < n) {
		while (i < n && lower_alnum(s[i]))
			i++;
		if (i == n)
			return 1;
		size_t sep = i;
		if (s[i] == '.') {
			i++;
		} else if (s[i] == '_') {
			i++;
			if (i < n && s[i] == '_')
				i++;
		} else if (s[i] == '-') {
			while (i < n && s[i] == '-')
				i++;
		} else {
			return 0;
		}
		if (i == sep || i == n || !lower_alnum(s[i]))
			return 0;
	}
	return 1;
}

/* domainAndPort: (domainName | \[ipv6\]) (:[0-9]+)? */
static int domain_ok(const char *s, size_t n)
{
	size_t host = n;
	const char *colon = NULL;
	if (n && s[0] == '[') {
		const char *close = memchr(s, ']', n);
		if (!close || close == s + 1)
			return 0;
		for (const char *p = s + 1; p < close; p++)
			if (!hexdig(*p) && *p != ':')
				return 0;
		host = (size_t)(close - s) + 1;
		if (host < n) {
			if (s[host] != ':')
				return 0;
			colon = s + host;
		}
	} else {
		colon = memchr(s, ':', n);
		if (colon)
			host = (size_t)(colon - s);
		size_t start = 0;
		for (size_t i = 0; i <= host; i++) {
			if (i < host && s[i] != '.')
				continue;
			size_t len = i - start;
			if (!len || !alnum(s[start]) || !alnum(s[i - 1]))
				return 0;
			for (size_t j = start; j < i; j++)
				if (!alnum(s[j]) && s[j] != '-')
					return 0;
			start = i + 1;
		}
	}
	if (colon) {
		size_t p = (size_t)(colon - s) + 1;
		if (p == n)
			return 0;
		for (; p < n; p++)
			if (s[p] < '0' || s[p] > '9')
				return 0;
	}
	return 1;
}

/* digest.Parse: a known algorithm and its exact lowercase hex length. */
static int digest_ok(const char *s, size_t n)
{
	static const struct {
		const char *alg;
		size_t hex;
	} algs[] = {{"sha256", 64}, {"sha384", 96}, {"sha512", 128}};
	const char *colon = memchr(s, ':', n);
	if (!colon)
		return 0;
	size_t alen = (size_t)(colon - s), hlen = n - alen - 1;
	for (size_t i = 0; i < sizeof(algs) / sizeof(algs[0]); i++) {
		if (strlen(algs[i].alg) != alen || memcmp(s, algs[i].alg, alen) != 0)
			continue;
		if (hlen != algs[i].hex)
			return 0;
		for (size_t j = 0; j < hlen; j++)
			if (!((colon[1 + j] >= '0' && colon[1 + j] <= '9') ||
			      (colon[1 + j] >= 'a' && colon[1 + j] <= 'f')))
				return 0;
		return 1;
	}
	return 0;
}

/* ParseImageName (pkg/util/parsers/parsers.go) on dockerref.ParseNormalizedNamed */
const char *dsi_image_tag(const char *s, size_t n, size_t *len)
{
	*len = 0;
	if (!n)
		return NULL;
	if (n == 64) { /* anchoredIdentifierRegexp: a 64-hex identifier is not a name */
		size_t i = 0;
		while (i < n && ((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f')))
			i++;
		if (i == n)
			return NULL;
	}
	/* splitDockerDomain */
	const char *slash = memchr(s, '/', n);
	const char *rem = s;
	size_t dlen = 9; /* "docker.io" */
	int docker = 1;
	if (slash) {
		size_t fl = (size_t)(slash - s);
		int lower = 1;
		for (size_t i = 0; i < fl; i++)
			if (s[i] >= 'A' && s[i] <= 'Z')
				lower = 0;
		int plain = !memchr(s, '.', fl) && !memchr(s, ':', fl) &&
			    !(fl == 9 && memcmp(s, "localhost", 9) == 0) && lower;
		if (!plain) {
			if (!domain_ok(s, fl))
				return NULL;
			docker = 0;
			dlen = fl;
			rem = slash + 1;
		}
	}
	size_t rlen = n - (size_t)(rem - s);
	/* name[:tag][@digest]: the first '@' starts the digest, the first ':' the tag */
	const char *at = memchr(rem, '@', rlen);
	size_t before = at ? (size_t)(at - rem) : rlen;
	const char *colon = memchr(rem, ':', before);
	size_t name_len = colon ? (size_t)(colon - rem) : before;
	/* the remote name must be lowercase; each component must match pathComponent */
	size_t start = 0;
	for (size_t i = 0; i <= name_len; i++) {
		if (i < name_len && rem[i] != '/')
			continue;
		if (!path_component_ok(rem + start, i - start))
			return NULL;
		start = i + 1;
	}
	/* NameTotalLengthMax, counted on domain + "/" + ("library/" +) path */
	size_t total = dlen + 1 + name_len + ((docker && !memchr(rem, '/', name_len)) ? 8 : 0);
	if (total > 255)
		return NULL;
	const char *tag = NULL;
	size_t tlen = 0;
	if (colon) {
		tag = colon + 1;
		tlen = before - name_len - 1;
		if (!tlen || tlen > 128 || !word(tag[0]))
			return NULL;
		for (size_t i = 1; i < tlen; i++)
			if (!word(tag[i]) && tag[i] != '.' && tag[i] != '-')
				return NULL;
	}
	if (at && !digest_ok(at + 1, rlen - before - 1))
		return NULL;
	if (tag) {
		*len = tlen;
		return tag;
	}
	if (at)
		return NULL;
	*len = 6;
	return "latest";
}

/* ---- pod template ---------------------------------------------------------------------- */

/* SetDefaults_ObjectFieldSelector */
static int field_ref(dsi_rd *rd, json_t *fr) { return def_string(rd, fr, "apiVersion", "v1"); }

static int env_var(dsi_rd *rd, json_t *ev)
{
	json_t *vf;
	int rc = obj_member(rd, ev, "valueFrom", 0, &vf);
	if (rc < 0 || !vf)
		return rc;
	size_t m = dsi_rd_push(rd, "valueFrom");
	rc = with_obj(rd, vf, "fieldRef", field_ref);
	dsi_rd_pop(rd, m);
	return rc;
}

static int port(dsi_rd *rd, json_t *p) { return def_string(rd, p, "protocol", "TCP"); }

/* SetDefaults_HTTPGetAction */
static int http_get(dsi_rd *rd, json_t *h)
{
	int rc = def_string(rd, h, "path", "/");
	return rc < 0 ? rc : def_string(rd, h, "scheme", "HTTP");
}

/* GRPCAction.Service: +default="" */
static int grpc(dsi_rd *rd, json_t *g) { return def_pointer(rd, g, "service", json_string(""), is_string, "string"); }

/* SetDefaults_Probe, then its handler's defaults */
static int probe(dsi_rd *rd, json_t *p)
{
	int rc;
	if ((rc = def_int_zero(rd, p, "timeoutSeconds", 1)) < 0 ||
	    (rc = def_int_zero(rd, p, "periodSeconds", 10)) < 0 ||
	    (rc = def_int_zero(rd, p, "successThreshold", 1)) < 0 ||
	    (rc = def_int_zero(rd, p, "failureThreshold", 3)) < 0 || (rc = with_obj(rd, p, "httpGet", http_get)) < 0)
		return rc;
	return with_obj(rd, p, "grpc", grpc);
}

static int lifecycle_handler(dsi_rd *rd, json_t *h) { return with_obj(rd, h, "httpGet", http_get); }

static int lifecycle(dsi_rd *rd, json_t *l)
{
	int rc = with_obj(rd, l, "postStart", lifecycle_handler);
	return rc < 0 ? rc : with_obj(rd, l, "preStop", lifecycle_handler);
}

/* SetDefaults_Container plus the generated per-field defaults of a container */
static int container(dsi_rd *rd, json_t *c)
{
	json_t *img = member(c, "image");
	if (img && !json_is_string(img))
		return dsi_rd_fail(rd, "image", DS_ETYPE, "expected string, got %s", dsi_json_type_name(img));
	size_t tlen = 0;
	const char *tag = img ? dsi_image_tag(json_string_value(img), json_string_length(img), &tlen) : NULL;
	int latest = tag && tlen == 6 && memcmp(tag, "latest", 6) == 0;
	int rc;
	if ((rc = def_string(rd, c, "imagePullPolicy", latest ? "Always" : "IfNotPresent")) < 0 ||
	    (rc = def_string(rd, c, "terminationMessagePath", "/dev/termination-log")) < 0 ||
	    (rc = def_string(rd, c, "terminationMessagePolicy", "File")) < 0 ||
	    (rc = each_elem(rd, c, "ports", port)) < 0 || (rc = each_elem(rd, c, "env", env_var)) < 0 ||
	    (rc = with_obj(rd, c, "resources", resource_requirements)) < 0 ||
	    (rc = with_obj(rd, c, "livenessProbe", probe)) < 0 || (rc = with_obj(rd, c, "readinessProbe", probe)) < 0 ||
	    (rc = with_obj(rd, c, "startupProbe", probe)) < 0)
		return rc;
	return with_obj(rd, c, "lifecycle", lifecycle);
}

static int default_mode(dsi_rd *rd, json_t *src)
{
	return def_pointer(rd, src, "defaultMode", json_integer(0644), is_integer, "integer");
}

static int sa_token(dsi_rd *rd, json_t *t)
{
	return def_pointer(rd, t, "expirationSeconds", json_integer(3600), is_integer, "integer");
}

static int downward_item(dsi_rd *rd, json_t *it) { return with_obj(rd, it, "fieldRef", field_ref); }

static int downward_api(dsi_rd *rd, json_t *d)
{
	int rc = default_mode(rd, d);
	return rc < 0 ? rc : each_elem(rd, d, "items", downward_item);
}

static int downward_items(dsi_rd *rd, json_t *d) { return each_elem(rd, d, "items", downward_item); }

static int projection(dsi_rd *rd, json_t *p)
{
	int rc = with_obj(rd, p, "downwardAPI", downward_items);
	return rc < 0 ? rc : with_obj(rd, p, "serviceAccountToken", sa_token);
}

static int projected(dsi_rd *rd, json_t *p)
{
	int rc = default_mode(rd, p);
	return rc < 0 ? rc : each_elem(rd, p, "sources", projection);
}

static int host_path(dsi_rd *rd, json_t *h) { return def_pointer(rd, h, "type", json_string(""), is_string, "string"); }

static int iscsi(dsi_rd *rd, json_t *s) { return def_string(rd, s, "iscsiInterface", "default"); }

static int rbd(dsi_rd *rd, json_t *s)
{
	int rc;
	if ((rc = def_string(rd, s, "pool", "rbd")) < 0 || (rc = def_string(rd, s, "user", "admin")) < 0)
		return rc;
	return def_string(rd, s, "keyring", "/etc/ceph/keyring");
}

static int azure_disk(dsi_rd *rd, json_t *s)
{
	int rc;
	if ((rc = def_pointer(rd, s, "cachingMode", json_string("ReadWrite"), is_string, "string")) < 0 ||
	    (rc = def_pointer(rd, s, "fsType", json_string("ext4"), is_string, "string")) < 0 ||
	    (rc = def_pointer(rd, s, "readOnly", json_false(), is_boolean, "boolean")) < 0)
		return rc;
	return def_pointer(rd, s, "kind", json_string("Shared"), is_string, "string");
}

static int scale_io(dsi_rd *rd, json_t *s)
{
	int rc = def_string(rd, s, "storageMode", "ThinProvisioned");
	return rc < 0 ? rc : def_string(rd, s, "fsType", "xfs");
}

/* emptyDir has no defaults; its sizeLimit is served with the other quantities (pod_spec) */
static int empty_dir(dsi_rd *rd, json_t *e)
{
	(void)rd;
	(void)e;
	return 0;
}

static int claim_spec(dsi_rd *rd, json_t *s)
{
	int rc = def_pointer(rd, s, "volumeMode", json_string("Filesystem"), is_string, "string");
	return rc < 0 ? rc : with_obj(rd, s, "resources", resource_requirements);
}

static int claim_template(dsi_rd *rd, json_t *t)
{
	json_t *spec;
	int rc = obj_member(rd, t, "spec", 1, &spec);
	if (rc < 0)
		return rc;
	size_t m = dsi_rd_push(rd, "spec");
	rc = claim_spec(rd, spec);
	dsi_rd_pop(rd, m);
	return rc;
}

static int ephemeral(dsi_rd *rd, json_t *e) { return with_obj(rd, e, "volumeClaimTemplate", claim_template); }

/* The VolumeSource members (pkg/apis/core/validation validateVolumeSource's order). */
static const char *const volume_sources[] = {
	"emptyDir",
	"hostPath",
	"gitRepo",
	"gcePersistentDisk",
	"awsElasticBlockStore",
	"secret",
	"nfs",
	"iscsi",
	"glusterfs",
	"flocker",
	"persistentVolumeClaim",
	"rbd",
	"cinder",
	"cephfs",
	"quobyte",
	"downwardAPI",
	"fc",
	"flexVolume",
	"configMap",
	"azureFile",
	"vsphereVolume",
	"photonPersistentDisk",
	"portworxVolume",
	"azureDisk",
	"storageos",
	"projected",
	"scaleIO",
	"csi",
	"ephemeral",
	"image",
};

/* v has a source: a member of a source's name that is not null (one pass over v's few members
 * rather than a lookup for each of the 30 sources) */
static int has_source(const json_t *v)
{
	const char *key;
	size_t klen;
	json_t *m;
	json_object_keylen_foreach((json_t *)v, key, klen, m)
	{
		if (json_is_null(m))
			continue;
		for (size_t i = 0; i < sizeof(volume_sources) / sizeof(volume_sources[0]); i++)
			if (volume_sources[i][0] == key[0] && strlen(volume_sources[i]) == klen &&
			    memcmp(volume_sources[i], key, klen) == 0)
				return 1;
	}
	return 0;
}

/* SetDefaults_Volume and the source defaults */
static int volume(dsi_rd *rd, json_t *v)
{
	int rc;
	if (!has_source(v) && (rc = set_new(rd, v, "emptyDir", json_object())) < 0) /* ptr.AllPtrFieldsNil */
		return rc;
	static const struct {
		const char *key;
		elem_fn fn;
	} srcs[] = {
		{"emptyDir", empty_dir},
		{"hostPath", host_path},
		{"secret", default_mode},
		{"iscsi", iscsi},
		{"rbd", rbd},
		{"downwardAPI", downward_api},
		{"configMap", default_mode},
		{"azureDisk", azure_disk},
		{"projected", projected},
		{"scaleIO", scale_io},
		{"ephemeral", ephemeral},
	};
	for (size_t i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++)
		if ((rc = with_obj(rd, v, srcs[i].key, srcs[i].fn)) < 0)
			return rc;
	return 0;
}

/* SetDefaults_PodSpec and everything below it */
static int pod_spec(dsi_rd *rd, json_t *spec)
{
	int rc;
	json_t *sc;
	if ((rc = def_string(rd, spec, "dnsPolicy", "ClusterFirst")) < 0 ||
	    (rc = def_string(rd, spec, "restartPolicy", "Always")) < 0 ||
	    (rc = obj_member(rd, spec, "securityContext", 1, &sc)) < 0 ||
	    (rc = def_pointer(rd, spec, "terminationGracePeriodSeconds", json_integer(30), is_integer, "integer")) <
		    0 ||
	    (rc = def_string(rd, spec, "schedulerName", "default-scheduler")) < 0 ||
	    (rc = each_elem(rd, spec, "volumes", volume)) < 0 ||
	    (rc = each_elem(rd, spec, "initContainers", container)) < 0 ||
	    (rc = each_elem(rd, spec, "containers", container)) < 0 ||
	    (rc = each_elem(rd, spec, "ephemeralContainers", container)) < 0 ||
	    (rc = resource_list(rd, spec, "overhead")) < 0 ||
	    (rc = with_obj(rd, spec, "resources", resource_requirements)) < 0)
		return rc;
	/* every Quantity served in canonical form: the rounded resource lists again (no change), emptyDir.sizeLimit
	 * (not rounded: SetDefaults_ResourceList covers ResourceLists only) and resourceFieldRef divisors */
	if ((rc = dsi_podspec_canonical_quantities(spec, DSI_QFIELDS_STRICT, rd->err)) < 0) {
		dsi_error_prefix_path(rd->err, rd->path);
		return rc;
	}
	/* conversion: serviceAccountName and its deprecated alias serviceAccount are served together */
	json_t *san = member(spec, "serviceAccountName"), *sa = member(spec, "serviceAccount");
	if (san && !json_is_string(san))
		return dsi_rd_fail(rd, "serviceAccountName", DS_ETYPE, "expected string, got %s",
				   dsi_json_type_name(san));
	if (sa && !json_is_string(sa))
		return dsi_rd_fail(rd, "serviceAccount", DS_ETYPE, "expected string, got %s", dsi_json_type_name(sa));
	if ((!san || !json_string_length(san)) && sa && json_string_length(sa))
		return set_new(rd, spec, "serviceAccountName", json_string(json_string_value(sa)));
	if (san && json_string_length(san))
		return set_new(rd, spec, "serviceAccount", json_string(json_string_value(san)));
	return 0;
}

/* SetDefaults_DaemonSet (pkg/apis/apps/v1/defaults.go) */
static int daemonset_spec(dsi_rd *rd, json_t *spec)
{
	json_t *us, *ru, *tmpl, *tspec;
	int rc;
	if ((rc = obj_member(rd, spec, "updateStrategy", 1, &us)) < 0)
		return rc;
	size_t m = dsi_rd_push(rd, "updateStrategy");
	rc = def_string(rd, us, "type", "RollingUpdate");
	if (rc == 0 && strcmp(json_string_value(json_object_get(us, "type")), "RollingUpdate") == 0 &&
	    (rc = obj_member(rd, us, "rollingUpdate", 1, &ru)) == 0) {
		size_t m2 = dsi_rd_push(rd, "rollingUpdate");
		json_t *mu = member(ru, "maxUnavailable"), *ms = member(ru, "maxSurge");
		if (!mu)
			rc = set_new(rd, ru, "maxUnavailable", json_integer(1));
		if (rc == 0 && !ms)
			rc = set_new(rd, ru, "maxSurge", json_integer(0));
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	if (rc < 0 || (rc = def_pointer(rd, spec, "revisionHistoryLimit", json_integer(10), is_integer, "integer")) < 0)
		return rc;
	/* the template is a struct in Go: its spec is defaulted even when absent */
	if ((rc = obj_member(rd, spec, "template", 1, &tmpl)) < 0)
		return rc;
	m = dsi_rd_push(rd, "template");
	if ((rc = obj_member(rd, tmpl, "spec", 1, &tspec)) == 0) {
		size_t m2 = dsi_rd_push(rd, "spec");
		rc = pod_spec(rd, tspec);
		dsi_rd_pop(rd, m2);
	}
	dsi_rd_pop(rd, m);
	return rc;
}

/* fn on obj's spec (made when absent), with paths from obj. */
static int on_spec(json_t *obj, int (*fn)(dsi_rd *rd, json_t *spec), ds_error *err)
{
	dctx c;
	c.n = 0;
	dsi_rd *rd = &c.rd;
	dsi_rd_init(rd, err);
	if (!json_is_object(obj))
		return dsi_rd_fail(rd, NULL, DS_ETYPE, "expected an object, got %s", dsi_json_type_name(obj));
	json_t *spec;
	int rc = obj_member(rd, obj, "spec", 1, &spec);
	if (rc == 0) {
		size_t m = dsi_rd_push(rd, "spec");
		rc = fn(rd, spec);
		dsi_rd_pop(rd, m);
	}
	for (size_t i = 0; i < c.n; i++)
		json_decref(c.value[i]);
	return rc;
}

/* SetObjectDefaults_DaemonSet (pkg/apis/apps/v1/zz_generated.defaults.go) */
int dsi_daemonset_set_defaults(json_t *obj, ds_error *err) { return on_spec(obj, daemonset_spec, err); }

/* The pod template part of SetObjectDefaults_DaemonSet: SetDefaults_PodSpec and below on tmpl.spec */
int dsi_template_set_defaults(json_t *tmpl, ds_error *err) { return on_spec(tmpl, pod_spec, err); }

/* SetDefaults_Pod (pkg/apis/core/v1/defaults.go): a container's limits are its requests where it
 * names none; only for a Pod, not a pod template (the template's pods get it when created). */
static int requests_from_limits(dsi_rd *rd, json_t *c)
{
	json_t *res, *limits, *req;
	int rc;
	if ((rc = obj_member(rd, c, "resources", 0, &res)) < 0 || !res)
		return rc;
	size_t m = dsi_rd_push(rd, "resources");
	if ((rc = obj_member(rd, res, "limits", 0, &limits)) == 0 && limits && json_object_size(limits) &&
	    (rc = obj_member(rd, res, "requests", 1, &req)) == 0) {
		const char *k;
		json_t *v;
		json_object_foreach(limits, k, v)
		{
			if (!json_object_get(req, k) && json_object_set(req, k, v) < 0) {
				rc = dsi_error_nomem(rd->err);
				break;
			}
		}
	}
	dsi_rd_pop(rd, m);
	return rc;
}

/* SetDefaults_Pod, then the pod spec's defaults */
static int pod(dsi_rd *rd, json_t *spec)
{
	int rc;
	if ((rc = each_elem(rd, spec, "containers", requests_from_limits)) < 0 ||
	    (rc = each_elem(rd, spec, "initContainers", requests_from_limits)) < 0)
		return rc;
	return pod_spec(rd, spec);
}

/* SetObjectDefaults_Pod (pkg/apis/core/v1/zz_generated.defaults.go) */
int dsi_pod_set_defaults(json_t *obj, ds_error *err) { return on_spec(obj, pod, err); }
