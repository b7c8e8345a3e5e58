#include "pack_limits.h"

#include <algorithm>

#include "json_fields.h"
#include "lint_context.h"
#include "model.h"
#include "text.h"

namespace dtx {

namespace {

// "80 GB", "100 %", 0.5: a bound as written, in base units of its unit. The unit of every
// bound of one limit is the first one's.
std::optional<double> load_bound(const Json& j, const std::string& ptr, LoadContext& ctx, PackLimit& limit,
                                 std::string& text) {
  if (j.is_number()) {
    text = format_number(j.get<double>(), 6);
    return j.get<double>() * limit.unit.factor;
  }
  if (!j.is_string()) {
    ctx.error(DiagCode::WrongKind, ptr, "expected a quantity such as \"80 GB\" or a number, got " + describe_json(j));
    return std::nullopt;
  }
  text = j.get<std::string>();
  std::string err;
  auto q = parse_quantity(text, &err);
  if (!q) {
    ctx.error(DiagCode::ValueNotAllowed, ptr, "expected a quantity such as \"80 GB\": " + err);
    return std::nullopt;
  }
  if (q->unit) {
    if (!limit.unit.symbol.empty() && q->unit->dim != limit.unit.dim) {
      ctx.error(DiagCode::UnitMismatch, ptr, "\"" + text + "\" is " + describe_dim(q->unit->dim) + ", but this limit's other bound is " +
                                                 describe_dim(limit.unit.dim));
      return std::nullopt;
    }
    if (limit.unit.symbol.empty()) limit.unit = *q->unit;
    return q->value * q->unit->factor;
  }
  return q->value * limit.unit.factor;
}

std::string unit_suffix(const std::string& unit) { return unit.empty() ? "" : " " + unit; }

}  // namespace

std::vector<PackLimit> load_pack_limits(const Json& j, LoadContext& ctx) {
  std::vector<PackLimit> out;
  if (!ctx.expect_object(j, "/limits", "an object of limits such as {\"gpu-memory\": {\"max\": \"80 GB\", \"source\": \"...\"}}"))
    return out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string ptr = "/limits/" + json_pointer_escape(it.key());
    if (ctx.skip_comment(it.key(), it.value(), "/limits")) continue;
    if (!valid_id(it.key(), false)) {
      ctx.error(DiagCode::BadName, ptr, "expected a limit name of lower-case letters, digits and '-', got \"" + it.key() + "\"", true);
      continue;
    }
    const Json& v = it.value();
    if (!ctx.expect_object(v, ptr, "a limit such as {\"max\": \"80 GB\", \"source\": \"...\"}")) continue;
    ctx.check_fields(v, ptr, {"min", "max", "source"}, {});
    PackLimit limit;
    limit.id = it.key();
    limit.pointer = ptr;
    if (auto s = ctx.string_field(v, ptr, "source", false)) limit.source = *s;
    if (v.contains("max")) limit.max = load_bound(v["max"], ptr + "/max", ctx, limit, limit.max_text);
    if (v.contains("min")) limit.min = load_bound(v["min"], ptr + "/min", ctx, limit, limit.min_text);
    if (!v.contains("min") && !v.contains("max"))
      ctx.error(DiagCode::MissingField, ptr, "a limit needs \"min\", \"max\" or both");
    out.push_back(std::move(limit));
  }
  return out;
}

std::vector<LimitBinding> load_limit_bindings(const Json& j, const std::string& ptr, LoadContext& ctx) {
  std::vector<LimitBinding> out;
  if (!ctx.expect_object(j, ptr, "an object such as {\"gpu-memory\": [\"answer.stage3\"]}")) return out;
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (ctx.skip_comment(it.key(), it.value(), ptr)) continue;
    const std::string lptr = ptr + "/" + json_pointer_escape(it.key());
    const Json& names = it.value();
    if (!names.is_array() || names.empty()) {
      ctx.error(DiagCode::WrongKind, lptr, "expected a non-empty array of names (parameters, derived values or answer.PART), got " +
                                               describe_json(names));
      continue;
    }
    for (size_t i = 0; i < names.size(); ++i) {
      const std::string nptr = lptr + "/" + std::to_string(i);
      if (!names[i].is_string()) {
        ctx.error(DiagCode::WrongKind, nptr, "expected a name such as \"answer.stage3\", got " + describe_json(names[i]));
        continue;
      }
      out.push_back({it.key(), names[i].get<std::string>(), nptr});
    }
  }
  return out;
}

namespace {

const PackLimit* find_limit(const std::vector<PackLimit>& limits, const std::string& id) {
  for (const auto& l : limits)
    if (l.id == id) return &l;
  return nullptr;
}

// The unit `name`'s value is in: a part's or a parameter's own, else the limit's.
std::string value_unit(const Exercise& ex, const std::string& name, const PackLimit& limit) {
  if (ex.spec) {
    std::string u = ex.spec->answer_unit(ex, name);
    if (!u.empty()) return u;
  }
  for (const auto& p : ex.params)
    if (p.name == name && p.unit) return p.unit->symbol;
  return limit.unit.symbol;
}

}  // namespace

void lint_limit_bindings(const Exercise& ex, const std::vector<PackLimit>& limits, LintContext& ctx) {
  std::vector<std::string> known = ctx.declared;
  if (ex.spec)
    for (const auto& n : ex.spec->answer_names(ex)) known.push_back(n);
  for (const auto& b : ex.limits) {
    const PackLimit* limit = find_limit(limits, b.limit);
    if (!limit) {
      std::vector<std::string> ids;
      for (const auto& l : limits) ids.push_back(l.id);
      ctx.error(DiagCode::UnknownLimit, b.pointer, "the pack declares no limit \"" + b.limit + "\"" + did_you_mean(b.limit, ids) +
                                                       (ids.empty() ? " (the pack has no \"limits\")" : "; declared: " + join_names(ids, ", ")));
      continue;
    }
    if (std::find(known.begin(), known.end(), b.name) == known.end()) {
      ctx.error(DiagCode::UnknownLimit, b.pointer, "\"" + b.name + "\" is not a parameter, derived value or answer of this exercise" +
                                                       did_you_mean(b.name, known) + "; it has: " + join_names(known, ", "));
      continue;
    }
    std::string err;
    auto u = parse_unit(value_unit(ex, b.name, *limit), &err);
    if (u && !limit->unit.symbol.empty() && u->dim != limit->unit.dim)
      ctx.error(DiagCode::UnknownLimit, b.pointer, "\"" + b.name + "\" is " + describe_dim(u->dim) + " (" + u->symbol + "), but limit \"" +
                                                       b.limit + "\" bounds " + describe_dim(limit->unit.dim));
  }
}

void lint_limits_instance(const Exercise& ex, const Instance& inst, const std::vector<PackLimit>& limits,
                          InstanceProblems& out) {
  auto scope = inst.scope();
  for (const auto& b : ex.limits) {
    const PackLimit* limit = find_limit(limits, b.limit);
    auto v = scope(b.name);
    if (!limit || !v) continue;  // lint_limit_bindings reports it
    std::string err;
    std::string unit = value_unit(ex, b.name, *limit);
    auto u = parse_unit(unit, &err);
    if (!u) continue;
    double base = *v * u->factor;
    bool low = limit->min && base < *limit->min * (1 - 1e-9);
    bool high = limit->max && base > *limit->max * (1 + 1e-9);
    if (!low && !high) continue;
    std::string bound = high ? "at most " + limit->max_text : "at least " + limit->min_text;
    out.problem(DiagCode::OverLimit, b.pointer,
                "\"" + b.name + "\" is " + format_for_reading(*v) + unit_suffix(unit) + ", but the pack's limit \"" + b.limit +
                    "\" is " + bound + (limit->source.empty() ? "" : " (" + limit->source + ")"));
  }
}

}  // namespace dtx
