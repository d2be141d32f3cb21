/*
 * make bench, ingest section: simdjson's own parse of a whole dump (On-Demand, every value visited,
 * strings unescaped, numbers converted), the bare parser that the SIMDJSON=1 front end is built
 * on; linked into the probe of that build (tests/bench/run.sh).
 */
#include <simdjson.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>

using namespace simdjson;

static double now_s()
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static size_t visit(ondemand::value v)
{
	size_t n = 1;
	switch (v.type()) {
	case ondemand::json_type::object:
		for (auto field : v.get_object()) {
			std::string_view k = field.unescaped_key();
			n += k.size() > 0;
			n += visit(field.value());
		}
		break;
	case ondemand::json_type::array:
		for (auto e : v.get_array())
			n += visit(e.value());
		break;
	case ondemand::json_type::string: n += std::string_view(v.get_string()).size() > 0; break;
	case ondemand::json_type::number: n += double(v.get_double()) > 0; break;
	case ondemand::json_type::boolean: n += bool(v.get_bool()); break;
	case ondemand::json_type::null: n += v.is_null(); break;
	}
	return n;
}

extern "C" double bench_simdjson_parse(const char *text, size_t size);

extern "C" double bench_simdjson_parse(const char *text, size_t size)
{
	padded_string json(text, size); /* simdjson wants padding after the text: a copy, not timed */
	double t = now_s();
	ondemand::parser parser(size);
	size_t n = 0;
	try {
		ondemand::document doc = parser.iterate(json);
		n = visit(doc.get_value());
	} catch (const simdjson_error &e) {
		fprintf(stderr, "ingest_probe: simdjson: %s\n", e.what());
		exit(1);
	}
	t = now_s() - t;
	return n ? t : 0;
}
