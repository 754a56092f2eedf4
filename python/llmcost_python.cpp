// `import llmcost`: the library's Python face (pybind11). Like the `llmcost` tool, it reads
// arguments, calls the library and hands the figures back; every figure, rule and default is the
// library's. Python arguments are checked here for their type (a str where a number belongs) and
// turned into the library's types; the library's own rules (tp divides the heads, a batch fits, a
// prompt has a token) raise llmcost.InvalidInput with the library's field, value, rule and id.
//
// One translation unit on purpose: pybind11 and Eigen cost seconds each.

#include <llmcost/catalog/lookup.hpp>
#include <llmcost/descriptors/weights_text.hpp>
#include <llmcost/io/hf_config.hpp>
#include <llmcost/io/intern.hpp>
#include <llmcost/llmcost.hpp>
#include <llmcost/plan.hpp>
#include <llmcost/io/lengths.hpp>
#include <llmcost/io/trace_csv.hpp>
#include <llmcost/plan/measurements_csv.hpp>
#include <llmcost/catalog/datasets.hpp>
#include <llmcost/sim/simulate.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace py = pybind11;
using namespace pybind11::literals;

namespace llmcost::python {
namespace {

// ---- errors ------------------------------------------------------------------------------------

// The exception classes, created once at import and never freed (they live as long as the
// interpreter; a static py::object would be destroyed after it).
PyObject* invalid_input_type = nullptr;
PyObject* load_error_type = nullptr;

using attributes = std::vector<std::pair<const char*, py::object>>;

/// Raises `type(message)` with `attrs` set on the instance.
[[noreturn]] void raise(PyObject* type, const std::string& message, const attributes& attrs) {
    py::object e = py::reinterpret_borrow<py::object>(type)(message);
    for (const auto& [name, v] : attrs) e.attr(name) = v;
    PyErr_SetObject(type, e.ptr());
    throw py::error_already_set();
}

/// llmcost.InvalidInput for an argument this face refuses before the library sees it (a wrong
/// type, an unknown name), worded as the library words its own: "llmcost: field = value: rule [id]".
[[noreturn]] void refuse(std::string_view field, py::handle value, const std::string& rule, std::string_view id) {
    const std::string shown = py::repr(value);
    raise(invalid_input_type,
          "llmcost: " + std::string(field) + " = " + shown + ": " + rule + " [" + std::string(id) + "]",
          {{"subject", py::str("argument")},
           {"field", py::str(std::string(field))},
           {"value", py::reinterpret_borrow<py::object>(value)},
           {"rule", py::str(rule)},
           {"id", py::str(std::string(id))}});
}

/// The library's exceptions as Python's: invalid_input → InvalidInput, io::load_error → LoadError.
void translate(std::exception_ptr p) {
    try {
        if (p) std::rethrow_exception(p);
    } catch (const invalid_input& e) {
        raise(invalid_input_type, e.what(),
              {{"subject", py::str(e.subject())},
               {"field", py::str(e.field())},
               // a word (a scenario, an engine) as the str it is, as `refuse` passes a name; else the number
               {"value", e.word().empty() ? py::object(py::float_(e.value())) : py::object(py::str(e.word()))},
               {"rule", py::str(e.rule())},
               {"id", py::str(e.id())}});
    } catch (const io::load_error& e) {
        raise(load_error_type, e.what(),
              {{"path", py::str(e.path())},
               {"field", py::str(e.key())},
               {"value", py::str(e.value())},
               {"rule", py::str(e.rule())},
               {"id", py::str("")},
               {"line", py::int_(e.line())},
               {"column", py::int_(e.column())}});
    }
}

// ---- arguments ---------------------------------------------------------------------------------

std::string type_name(py::handle v) { return Py_TYPE(v.ptr())->tp_name; }

/// A real number: an int, a float or a NumPy scalar (not a bool, a str or a complex). NaN and
/// infinities pass: the library's rules refuse them where they do not belong, in their own words.
double number(py::handle v, std::string_view field) {
    PyObject* o = v.ptr();
    if (PyFloat_Check(o)) return PyFloat_AS_DOUBLE(o);
    if (PyBool_Check(o) || PyUnicode_Check(o) || PyBytes_Check(o) || PyComplex_Check(o) || !PyNumber_Check(o))
        refuse(field, v, "must be a number, got " + type_name(v), "llmcost.argument.type");
    PyObject* f = PyNumber_Float(o);
    if (f == nullptr) {
        PyErr_Clear();
        refuse(field, v, "must be a number a double can hold, got " + type_name(v), "llmcost.argument.type");
    }
    const double d = PyFloat_AS_DOUBLE(f);
    Py_DECREF(f);
    return d;
}

/// A degree of parallelism or a GPU count: a whole number from 1 to 10^8 (the `llmcost` tool's rule).
int whole(py::handle v, std::string_view field) {
    const double d = number(v, field);
    if (!(d >= 1.0 && d <= 1e8 && d == std::floor(d)))
        refuse(field, v, "must be a whole number from 1 to 100,000,000", "llmcost.argument.whole_number");
    return static_cast<int>(d);
}

/// Tokens, sequences, requests or a cap on them (input, output, batch, context, max_batch …): a number
/// as `number` reads it, refused when finite and not whole, as `llmcost` refuses --input 1000.5 (no
/// fraction of a token or a sequence is priced). Signs, NaN and infinities are the library's rules' to name.
double whole_count(py::handle v, std::string_view field) {
    const double d = number(v, field);
    if (std::isfinite(d) && d != std::floor(d))
        refuse(field, v, "must be a whole number (tokens, sequences and requests are counted whole)",
               "llmcost.argument.whole_number");
    return d;
}

bool flag(py::handle v, std::string_view field) {
    if (!PyBool_Check(v.ptr())) refuse(field, v, "must be True or False, got " + type_name(v), "llmcost.argument.type");
    return v.ptr() == Py_True;
}

std::string str_arg(py::handle v, std::string_view field) {
    if (!PyUnicode_Check(v.ptr())) refuse(field, v, "must be a str, got " + type_name(v), "llmcost.argument.type");
    return v.cast<std::string>();
}

/// A number format by name (`llmcost.formats()`); None = the model's own.
std::optional<number_format> format_arg(py::handle v, std::string_view field) {
    if (v.is_none()) return std::nullopt;
    const std::string name = str_arg(v, field);
    if (const auto f = format_named(name)) return *f;
    std::string known;
    for (const number_format& f : formats::all) known += (known.empty() ? "" : ", ") + std::string(f.name);
    refuse(field, v, "not a number format; known: " + known, "llmcost.format.unknown_name");
}

/// A catalog entry by loose name (catalog::lookup), remembered per spelling: the look-up ranks
/// every name for its suggestions, which a loop of estimates should not pay on every call.
template <class Entry>
const Entry& named(py::handle v, std::string_view field) {
    static std::unordered_map<std::string, const Entry*> seen;
    std::string name = str_arg(v, field);
    if (const auto it = seen.find(name); it != seen.end()) return *it->second;
    const catalog::lookup_result<Entry> found = catalog::lookup<Entry>(name);
    if (!found)
        refuse(field, v, found.problem(),
               found.ambiguous ? "llmcost.catalog.ambiguous_name" : "llmcost.catalog.unknown_name");
    seen.emplace(std::move(name), found.match);
    return *found.match;
}

template <class Entry>
const Entry& entry_arg(py::handle v, std::string_view field, const char* python_type) {
    if (PyUnicode_Check(v.ptr())) return named<Entry>(v, field);
    if (py::isinstance<Entry>(v)) return v.cast<const Entry&>();
    refuse(field, v, std::string("must be a catalog name (str) or a llmcost.") + python_type + ", got " + type_name(v),
           "llmcost.argument.type");
}
const model& model_arg(py::handle v) { return entry_arg<model>(v, "model", "Model"); }
const hardware& hardware_arg(py::handle v) { return entry_arg<hardware>(v, "hardware", "Hardware"); }

/// Whether a list argument is a single value (a str, None, a descriptor or anything not iterable), a list of one.
bool single_item(py::handle v) {
    return PyUnicode_Check(v.ptr()) || v.is_none() || !py::hasattr(v, "__iter__") || py::isinstance<model>(v) ||
           py::isinstance<hardware>(v);
}

/// The values of a list argument (any iterable but a str); a single value is a list of one.
std::vector<py::object> items(py::handle v) {
    std::vector<py::object> out;
    if (single_item(v)) {
        out.push_back(py::reinterpret_borrow<py::object>(v));
        return out;
    }
    for (py::handle x : v) out.push_back(py::reinterpret_borrow<py::object>(x));
    return out;
}

/// A sweep's axis longer than the grid may hold (`plan::sweep_grid::max_points`) is refused as the library refuses
/// the grid, before it is read: `batch=range(1, 10**9)` filled 21 GB and the kernel was killed before session 53.
[[noreturn]] void refuse_long_axis(std::string_view field, double length) {
    refuse(field, py::int_(static_cast<long long>(length)),
           "has more values than a sweep's 10^7 grid points (this is its length): split the sweep, or try fewer",
           "llmcost.plan.grid_size");
}

/// Numbers of a list argument (a sweep's axis); a NumPy array of doubles is read without a Python object per value.
std::vector<double> numbers(py::handle v, std::string_view field) {
    constexpr double most = plan::sweep_grid::max_points;
    if (py::isinstance<py::array>(v)) {
        const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(v);
        if (!a) refuse(field, v, "must be an array of numbers", "llmcost.argument.type");
        if (static_cast<double>(a.size()) > most) refuse_long_axis(field, static_cast<double>(a.size()));
        return {a.data(), a.data() + a.size()};
    }
    if (single_item(v)) return {number(v, field)};
    const Py_ssize_t hint = PyObject_LengthHint(v.ptr(), 0);  // a range or list states it; a generator may not
    if (hint < 0) throw py::error_already_set();
    if (static_cast<double>(hint) > most) refuse_long_axis(field, static_cast<double>(hint));
    std::vector<double> out;
    for (py::handle x : v) {
        out.push_back(number(x, field));
        if (static_cast<double>(out.size()) > most) refuse_long_axis(field, static_cast<double>(out.size()));
    }
    return out;
}

/// Counts of a list argument (a sweep's input, output or batch axis), each whole as `whole_count` reads one.
std::vector<double> whole_counts(py::handle v, std::string_view field) {
    std::vector<double> out = numbers(v, field);
    for (double d : out)
        if (std::isfinite(d) && d != std::floor(d))
            refuse(field, py::float_(d), "must be whole numbers (tokens, sequences and requests are counted whole)",
                   "llmcost.argument.whole_number");
    return out;
}

/// The layout axes of a sweep: each degree given (a number or a list) replaces `defaults`' axis.
plan::layout_axes layout_axes_arg(py::handle tp, py::handle pp, py::handle ep, py::handle dp, plan::layout_axes defaults) {
    // Each axis bounded as `numbers` bounds one, from its length before it is read (tp=range(1, 10**9) would fill
    // memory first), and the layouts tp x pp x ep x dp as the grid is, before `plan::expand` builds them.
    constexpr double most = plan::sweep_grid::max_points;
    auto degrees = [](py::handle v, std::string_view name, std::vector<int>& into) {
        constexpr double limit = plan::sweep_grid::max_points;
        if (v.is_none()) return;  // the default axis
        into.clear();
        if (single_item(v)) {
            into.push_back(whole(v, name));
            return;
        }
        const Py_ssize_t hint = PyObject_LengthHint(v.ptr(), 0);  // a range or list states it; a generator may not
        if (hint < 0) throw py::error_already_set();
        if (static_cast<double>(hint) > limit) refuse_long_axis(name, static_cast<double>(hint));
        for (py::handle x : v) {
            into.push_back(whole(x, name));
            if (static_cast<double>(into.size()) > limit) refuse_long_axis(name, static_cast<double>(into.size()));
        }
    };
    degrees(tp, "tp", defaults.tp);
    degrees(pp, "pp", defaults.pp);
    degrees(ep, "ep", defaults.ep);
    degrees(dp, "dp", defaults.dp);
    const double layouts = static_cast<double>(defaults.tp.size()) * static_cast<double>(defaults.pp.size()) *
                           static_cast<double>(defaults.ep.size()) * static_cast<double>(defaults.dp.size());
    if (layouts > most) refuse_long_axis("tp x pp x ep x dp", layouts);
    return defaults;
}

// ---- the deployment ------------------------------------------------------------------------------

/// The deployment the arguments describe, as the `llmcost` tool builds it from its flags: the
/// model and GPU by name (or as objects), the layout (dp from the GPU count when given), the formats
/// (`with_formats`), checked (`deployment::validate`).
struct deployment_args {
    py::handle model, hardware, tp, pp, ep, dp, gpus, weights, kv;
    py::handle engine{};  ///< None or absent: the reference engine
    py::handle kv_memory_fraction{};  ///< None or absent: the engine's own (tables/engines.csv)
    py::handle excluded_modules{};    ///< None or absent: none kept out of `weights`
    py::handle kept_format{};         ///< None or absent: bf16
    py::handle eager_prompt{};        ///< None or absent: the engine's rule
    py::handle gemm_table{};          ///< None or absent: no GEMM table, the size curve
    py::handle clock_MHz{};           ///< None or absent: the engine clock not pinned
    py::handle quick_reduce{};        ///< None, absent or 'none': the engine's quantized all-reduce not on
    py::handle kv_block_tokens{};     ///< None or absent: the engine's own KV block (tables/engines.csv)
    py::handle host_loop{};           ///< None or absent: the engine's own loop; 'v0': vLLM's V0 LLMEngine loop
    py::handle a2a_dispatch_cap{};    ///< None or absent: the engine's own all-to-all dispatch cap (SGLang's 4096)
};

/// The modules `excluded_modules=` names (a str, comma-separated, or a list of str: the words of tables/measurements.csv's
/// `excluded_modules`, `excluded_modules_named`), kept in `kept_format=` (None: bf16), as `llmcost … --excluded-modules
/// --kept-format`; None or absent: nothing. An unknown word is refused naming it and the words.
std::optional<excluded_modules> excluded_modules_arg(py::handle list, py::handle format) {
    const bool none = list.ptr() == nullptr || list.is_none();
    const bool no_format = format.ptr() == nullptr || format.is_none();
    if (none) {
        if (!no_format)
            refuse("kept_format", format, "needs excluded_modules= (the modules kept in that format)", "llmcost.argument.needs");
        return std::nullopt;
    }
    std::string words;
    if (PyUnicode_Check(list.ptr())) {
        words = list.cast<std::string>();
    } else {
        if (!py::isinstance<py::sequence>(list))
            refuse("excluded_modules", list, "must be a str (comma-separated) or a list of str, got " + type_name(list),
                   "llmcost.argument.type");
        for (py::handle w : list) words += str_arg(w, "excluded_modules") + ",";
    }
    const number_format f = no_format ? formats::bf16 : *format_arg(format, "kept_format");
    if (f == formats::fp32)  // as `llmcost … --kept-format`: a checkpoint's formats, not fp32
        refuse("kept_format", format, "not a checkpoint format (fp32); one of bf16, fp16, fp8, int8, int4, fp4, nvfp4, mxfp4",
               "llmcost.argument.choice");
    const excluded_modules_reading r = excluded_modules_named(words, ',', f);
    if (r.names_none())
        refuse("excluded_modules", list, std::string(excluded_modules_names_none) + std::string(excluded_module_words),
               "llmcost.argument.choice");
    if (!r.ok())
        refuse("excluded_modules", list, "unknown module '" + std::string(r.unknown) + "'; the modules: " +
               std::string(excluded_module_words), "llmcost.argument.choice");
    return r.kept;
}

/// excluded_modules= needs weights= (the format the rest is quantized to), as the measurements loader's column needs
/// its `weights` column and `llmcost … --excluded-modules` --weights (`excluded_modules_need_weights`).
void require_weights_for_kept(const std::vector<serving_formats>& fs, py::handle list) {
    for (const serving_formats& f : fs)
        if (f.kept && !f.weights)
            refuse("excluded_modules", list, std::string(excluded_modules_need_weights) + " (weights=)",
                   "llmcost.argument.needs");
}

/// The prompt launch `eager_prompt=` states ('overlap', 'serial', '0': `prompt_launch_named`, as `llmcost …
/// --eager-prompt`); None or absent: the engine's rule. Another value is refused with the words.
std::optional<prompt_launch_mode> eager_prompt_arg(py::handle v) {
    if (v.ptr() == nullptr || v.is_none()) return std::nullopt;
    const std::optional<prompt_launch_mode> m = prompt_launch_named(str_arg(v, "eager_prompt"));
    if (!m) refuse("eager_prompt", v, "one of " + std::string(prompt_launch_words) + " (None: the engine's rule)",
                   "llmcost.argument.choice");
    return m;
}

/// The KV admission `kv_admission=` states ('reserve', 'in_use': `kv_admission_named`, as `llmcost estimate
/// --kv-admission`); None, absent or empty: the engine's rule (`kv_admission_rule`, as the CLI and the table's
/// column read an empty word). Another value is refused with the library's rule and its id.
kv_admission kv_admission_arg(py::handle v) {
    if (v.ptr() == nullptr || v.is_none()) return kv_admission::engine_default;
    const std::string word = str_arg(v, "kv_admission");
    if (word.empty()) return kv_admission::engine_default;
    const std::optional<kv_admission> a = kv_admission_named(word);
    if (!a) refuse("kv_admission", v, std::string(kv_admission_rule), "llmcost.serving.kv_admission");
    return *a;
}

/// The engine `name` ("trtllm", "vllm", "sglang") on `hw`, as `llmcost … --engine` reads it
/// (catalog::engine_for); None: the reference engine. An unknown name is refused with the engines;
/// an engine without a profile for the GPU's architecture by the library, naming the alternatives.
engine_profile engine_arg(py::handle name, const hardware& hw) {
    if (name.ptr() == nullptr || name.is_none()) return engine_profile::reference();
    const std::string text = str_arg(name, "engine");
    const std::optional<engine_kind> k = engine_named(text);
    if (!k || *k == engine_kind::reference)
        refuse("engine", name, "is not an engine; the engines are trtllm, vllm, sglang (None: the reference engine)",
               "llmcost.argument.choice");
    return catalog::engine_for(*k, hw);
}

/// `e` with `kv_memory_fraction=` as the f of its KV pool rule (`with_kv_memory_fraction`, as
/// `llmcost … --kv-memory-fraction`); None or absent: the engine's own. Outside (0, 1], NaN or not a
/// number: refused in the tool's words ("must be in (0, 1]").
engine_profile kv_memory_fraction_arg(engine_profile e, py::handle f) {
    if (f.ptr() == nullptr || f.is_none()) return e;
    const double v = number(f, "kv_memory_fraction");
    if (!is_memory_fraction(v))
        refuse("kv_memory_fraction", f, "must be in (0, 1] (the f of the engine's KV pool rule)", "llmcost.argument.fraction");
    return with_kv_memory_fraction(e, v);
}

/// `e` with `kv_block_tokens=` as its paged KV cache's block size (`with_kv_block_tokens`, as `llmcost …
/// --kv-block-tokens`); None or absent: the engine's own. Not a whole number from 1 to 65,536: the library's refusal.
engine_profile kv_block_tokens_arg(engine_profile e, py::handle b) {
    if (b.ptr() == nullptr || b.is_none()) return e;
    return with_kv_block_tokens(e, number(b, "kv_block_tokens"));
}

/// `e` with `a2a_dispatch_cap=` as the tokens a rank may dispatch in one expert all-to-all (`with_dispatch_cap`, as
/// `llmcost … --a2a-dispatch-cap`: the receive buffer a padded expert runner runs over, docs/mi355x-disagg-decode.md
/// §6); None or absent: the engine's own (SGLang's 4096). Not a whole number from 1 to 2^20: refused naming the
/// keyword, by the library's rule (`is_dispatch_cap`, `dispatch_cap_rule`).
engine_profile a2a_dispatch_cap_arg(engine_profile e, py::handle c) {
    if (c.ptr() == nullptr || c.is_none()) return e;
    const double v = number(c, "a2a_dispatch_cap");
    if (!is_dispatch_cap(v)) refuse("a2a_dispatch_cap", c, std::string(dispatch_cap_rule), "llmcost.argument.range");
    return with_dispatch_cap(e, v);
}

/// `e` running vLLM's V0 LLMEngine loop where `host_loop=` is 'v0' (`with_v0_loop`, as `llmcost … --host-loop v0`:
/// each scheduler pass's host time a0 + a1 (tp - 1) + h n priced, docs/vllm-v0-host-loop.md); None or absent: the
/// engine's own loop. Another word is refused with the one the tool takes; an engine other than vLLM (naming engine)
/// or a profile with no V0 pass figures (naming host_loop) by the library's rule, as the tool refuses them.
engine_profile host_loop_arg(engine_profile e, py::handle v) {
    if (v.ptr() == nullptr || v.is_none()) return e;
    if (str_arg(v, "host_loop") != "v0")
        refuse("host_loop", v, "one of 'v0' (None: the engine's own loop)", "llmcost.argument.choice");
    return with_v0_loop(e, "engine", "host_loop");
}

/// The catalog GEMM table `gemm_table=` names (`catalog::gemm_table_by_id`, as `llmcost … --gemm-table`); None or absent:
/// none. An unknown id is refused naming the ids; a table that does not fit the deployment by `deployment::validate`.
const gemm_table* gemm_table_arg(py::handle id) {
    if (id.ptr() == nullptr || id.is_none()) return nullptr;
    const std::string text = str_arg(id, "gemm_table");
    if (const gemm_table* g = catalog::gemm_table_by_id(text)) return g;
    std::string known;
    for (const gemm_table* c : catalog::gemm_tables) known += (known.empty() ? "" : ", ") + std::string(c->id);
    refuse("gemm_table", id, "is not a GEMM table; the tables are " + known + " (None: none, the size curve)",
           "llmcost.argument.choice");
}

/// The engine clock `clock_MHz=` pins (`at_engine_clock`, as `llmcost … --clock`); None or absent: 0, not pinned.
/// Refused by the library's clock rule as the tool's --clock (`require_engine_clock` here, 0 included; the GPU's, its
/// fractions at the clock, by `at_engine_clock`), or not a number.
double clock_arg(py::handle f) {
    if (f.ptr() == nullptr || f.is_none()) return 0.0;
    const double v = number(f, "clock_MHz");
    require_engine_clock("clock_MHz", "clock_MHz", v);
    return v;
}

/// Whether `quick_reduce=` turns the engine's quantized all-reduce on ('int4': SGLang's QuickReduce INT4, as `llmcost …
/// --quick-reduce int4`); None, absent or 'none': not on. Another value is refused with the words; where it cannot run
/// (off SGLang, a profile without the curve, a TP other than 2, 4 or 8) by the library's rule, `with_quick_reduce`.
bool quick_reduce_arg(py::handle v) {
    if (v.ptr() == nullptr || v.is_none()) return false;
    const std::string text = str_arg(v, "quick_reduce");
    if (text != "int4" && text != "none")
        refuse("quick_reduce", v, "one of 'int4', 'none' (None: not on; QuickReduce's other levels have no measured curve)",
               "llmcost.argument.choice");
    return text == "int4";
}

/// The layout the degrees and the GPU count describe (`layout_for_gpus`: dp = gpus ÷ (tp · pp) when
/// dp is not given, else tp · pp · dp must be gpus), as the `llmcost` tool reads --tp … --gpus.
parallel_layout layout_arg(const deployment_args& a) {
    layout_request r{.tp = whole(a.tp, "tp"), .pp = whole(a.pp, "pp"), .ep = whole(a.ep, "ep")};
    if (!a.dp.is_none()) r.dp = whole(a.dp, "dp");
    if (!a.gpus.is_none()) r.gpus = whole(a.gpus, "gpus");
    return layout_for_gpus(r);
}

deployment deployment_of(const deployment_args& a) {
    deployment d{.m = model_arg(a.model), .hw = hardware_arg(a.hardware), .layout = layout_arg(a)};
    const serving_formats f{.weights = format_arg(a.weights, "weights"), .kv = format_arg(a.kv, "kv"),
                            .kept = excluded_modules_arg(a.excluded_modules, a.kept_format)};
    require_weights_for_kept({f}, a.excluded_modules);
    d = with_formats(d, f);
    d.engine = kv_block_tokens_arg(kv_memory_fraction_arg(engine_arg(a.engine, d.hw), a.kv_memory_fraction), a.kv_block_tokens);
    d.engine = a2a_dispatch_cap_arg(host_loop_arg(d.engine, a.host_loop), a.a2a_dispatch_cap);
    if (const std::optional<prompt_launch_mode> p = eager_prompt_arg(a.eager_prompt)) d.engine.overheads.prompt_launch = *p;
    d.gemm.table = gemm_table_arg(a.gemm_table);
    if (quick_reduce_arg(a.quick_reduce)) d.engine = with_quick_reduce(d.engine, d.layout.tp, d.engine.name, "quick_reduce");
    d = at_engine_clock(d, clock_arg(a.clock_MHz));
    d.validate();  // a table for another GPU, format, model or TP degree: the library's refusal (gemm_table::check_fits)
    return d;
}

/// Contexts past the trained maximum are refused unless asked for (RoPE scaling, a fine-tune).
void check_context(const deployment& d, double context, py::handle ignore_max_position) {
    if (!flag(ignore_max_position, "ignore_max_position"))
        require_within_max_position(d.m, context, "; pass ignore_max_position=True to price it anyway");
}

/// A prefix-cache hit share h (S6), as `llmcost … --prefix-hit` reads it: in [0, 1), else refused
/// naming prefix_hit (at least the prompt's last token is computed).
double prefix_hit_arg(py::handle v) {
    const double h = number(v, "prefix_hit");
    if (!(h >= 0.0 && h < 1.0))
        refuse("prefix_hit", v, "must be in [0, 1): the share of each prompt found in a prefix cache (at least the "
               "prompt's last token is computed)", "llmcost.argument.fraction");
    return h;
}

request_shape shape_of(py::handle input, py::handle output) {
    return {.input = tokens(whole_count(input, "input")), .output = tokens(whole_count(output, "output"))};
}

// ---- results -------------------------------------------------------------------------------------

/// `llmcost.estimate`'s answer: the fields of `llmcost estimate --format json`, in its order, with
/// its names (SI, the unit in the name). A plain struct, so that a call costs no dict.
struct estimate_result {
    std::string_view model, hardware;
    int gpus = 0, tp = 0, pp = 0, ep = 0, dp = 0;
    std::string_view weights;  ///< the format name, as weights= takes it back
    std::vector<std::string> excluded_modules;  ///< the modules kept out of it (their words; empty: none)
    std::optional<std::string> kept_format;     ///< their format; None: none kept
    std::string_view kv;
    double input_tokens = 0, output_tokens = 0, batch = 0;
    std::string_view limited_by;
    double ttft_s = 0, tpot_s = 0, e2e_s = 0, prefill_s = 0, decode_step_s = 0;
    bool step_memory_bound = false;
    double output_tokens_per_s = 0, output_tokens_per_s_per_gpu = 0, tokens_per_s_per_user = 0;
    double kv_bytes_per_token = 0, weight_bytes_per_gpu = 0, kv_capacity_tokens = 0;
    double energy_j_per_output_token = 0, wall_energy_j_per_output_token = 0, wh_per_request = 0, wall_wh_per_request = 0;
    std::optional<double> usd_per_gpu_hour, usd_per_million_output_tokens;  ///< None: the GPU has no price
    std::string pricing, usd_basis;  ///< the GPU-hour's basis (market, committed, tco, given) and its text
};

#define LLMCOST_ESTIMATE_FIELDS(X)                                                                               \
    X(model) X(hardware) X(gpus) X(tp) X(pp) X(ep) X(dp) X(weights) X(excluded_modules) X(kept_format) X(kv)     \
    X(input_tokens) X(output_tokens) X(batch) X(limited_by) X(ttft_s) X(tpot_s) X(e2e_s) X(prefill_s) X(decode_step_s) X(step_memory_bound)       \
    X(output_tokens_per_s) X(output_tokens_per_s_per_gpu) X(tokens_per_s_per_user) X(kv_bytes_per_token)         \
    X(weight_bytes_per_gpu) X(kv_capacity_tokens) X(energy_j_per_output_token) X(wall_energy_j_per_output_token) \
    X(wh_per_request) X(wall_wh_per_request) X(usd_per_gpu_hour) X(pricing) X(usd_basis)                       \
    X(usd_per_million_output_tokens)

py::dict to_dict(const estimate_result& r) {
    py::dict d;
#define LLMCOST_ITEM(f) d[#f] = py::cast(r.f);
    LLMCOST_ESTIMATE_FIELDS(LLMCOST_ITEM)
#undef LLMCOST_ITEM
    return d;
}


/// The answer of the other commands (kv, disagg, spec): named figures, read as attributes or as a
/// dict (`to_dict()`), with the names of the `llmcost` tool's JSON.
struct result {
    std::string kind;
    py::dict fields;
};

/// The modules `m`'s checkpoint keeps out of its weights' format, in the words excluded_modules= takes (empty: none).
py::list excluded_modules_of(const model& m) { return py::cast(excluded_module_words_of(m.excluded)); }
/// Their format, or None when none is kept.
py::object kept_format_of(const model& m) {
    return m.excluded.any() ? py::object(py::str(std::string(m.excluded.format.name))) : py::object(py::none());
}

void add_deployment(py::dict& r, const deployment& d) {
    r["model"] = std::string(d.m.name);
    r["hardware"] = std::string(d.hw.name);
    r["gpus"] = d.layout.gpus();
    r["tp"] = d.layout.tp;
    r["pp"] = d.layout.pp;
    r["ep"] = d.layout.ep;
    r["dp"] = d.layout.dp;
    r["weights"] = std::string(d.m.weights.name);  // the format name, as weights= takes it back
    r["excluded_modules"] = excluded_modules_of(d.m);
    r["kept_format"] = kept_format_of(d.m);
    r["kv"] = std::string(d.m.kv_cache.name);
}

// ---- descriptors: fields by name, for properties, keyword constructors, replace() and to_dict() ----

template <class T>
struct field {
    const char* name;
    std::function<py::object(const T&)> get;
    std::function<void(T&, py::handle)> set;  ///< empty: derived, read-only
};

/// A count in a descriptor (layers, heads, widths): a whole number from 0 to 2^31 − 1; what it must
/// be for the model to make sense is the descriptor's `validate()`.
int count(py::handle v, std::string_view field) {
    const double d = number(v, field);
    if (!(d >= 0.0 && d <= 2147483647.0 && d == std::floor(d)))
        refuse(field, v, "must be a whole number from 0 to 2,147,483,647", "llmcost.argument.whole_number");
    return static_cast<int>(d);
}

std::string_view name_arg(py::handle v, std::string_view field) { return io::intern(str_arg(v, field)); }

number_format format_field(py::handle v, std::string_view field) {
    if (v.is_none()) refuse(field, v, "must be a number format's name", "llmcost.argument.type");
    return *format_arg(v, field);
}

#define LLMCOST_INT(T, path, key)                                                          \
    field<T> { key, [](const T& x) { return py::object(py::int_(x.path)); },              \
                    [](T& x, py::handle v) { x.path = count(v, key); } }
#define LLMCOST_QTY(T, path, key)                                                                        \
    field<T> { key, [](const T& x) { return py::object(py::float_(x.path.value())); },                  \
                    [](T& x, py::handle v) { x.path = decltype(x.path)::from_value(number(v, key)); } }

const std::vector<field<model>>& model_fields() {
    static const std::vector<field<model>> f{
        {"name", [](const model& m) { return py::object(py::str(std::string(m.name))); },
         [](model& m, py::handle v) { m.name = name_arg(v, "name"); }},
        LLMCOST_INT(model, layers, "layers"),
        LLMCOST_INT(model, hidden, "hidden"),
        LLMCOST_INT(model, vocab, "vocab"),
        {"tied_embeddings", [](const model& m) { return py::object(py::bool_(m.tied_embeddings)); },
         [](model& m, py::handle v) { m.tied_embeddings = flag(v, "tied_embeddings"); }},
        {"attention", [](const model& m) { return py::object(py::str(m.attention.kind == attention_kind::latent ? "latent" : "standard")); }, {}},
        LLMCOST_INT(model, attention.query_heads, "query_heads"),
        LLMCOST_INT(model, attention.kv_heads, "kv_heads"),
        LLMCOST_INT(model, attention.head_dim, "head_dim"),
        LLMCOST_INT(model, attention.sliding_window, "sliding_window"),
        LLMCOST_INT(model, attention.sliding_window_layers, "sliding_window_layers"),
        LLMCOST_INT(model, ffn.intermediate, "intermediate"),
        LLMCOST_INT(model, ffn.routed_experts, "routed_experts"),
        LLMCOST_INT(model, ffn.shared_experts, "shared_experts"),
        LLMCOST_INT(model, ffn.top_k, "top_k"),
        LLMCOST_INT(model, ffn.expert_intermediate, "expert_intermediate"),
        LLMCOST_INT(model, ffn.first_dense_layers, "first_dense_layers"),
        LLMCOST_INT(model, max_position, "max_position"),
        {"weights", [](const model& m) { return py::object(py::str(std::string(m.weights.name))); },
         [](model& m, py::handle v) { m.weights = format_field(v, "weights"); }},
        {"kv_cache", [](const model& m) { return py::object(py::str(std::string(m.kv_cache.name))); },
         [](model& m, py::handle v) { m.kv_cache = format_field(v, "kv_cache"); }},
        {"activations", [](const model& m) { return py::object(py::str(std::string(m.activations.name))); },
         [](model& m, py::handle v) { m.activations = format_field(v, "activations"); }},
        LLMCOST_INT(model, mtp_modules, "mtp_modules"),
        // Per-layer patterns (issue 19): each layer's kind, chunks, split blocks, the state-space layers.
        {"layer_pattern", [](const model& m) { return py::object(py::str(std::string(m.pattern.kinds))); },
         [](model& m, py::handle v) { m.pattern.kinds = io::intern(str_arg(v, "layer_pattern")); }},
        LLMCOST_INT(model, pattern.chunk, "attention_chunk"),
        {"split_blocks", [](const model& m) { return py::object(py::bool_(m.pattern.split_blocks)); },
         [](model& m, py::handle v) { m.pattern.split_blocks = flag(v, "split_blocks"); }},
        LLMCOST_INT(model, norms_per_layer, "norms_per_layer"),
        {"qk_norm", [](const model& m) { return py::object(py::bool_(m.attention.qk_norm)); },
         [](model& m, py::handle v) { m.attention.qk_norm = flag(v, "qk_norm"); }},
        {"output_gate", [](const model& m) { return py::object(py::bool_(m.attention.output_gate)); },
         [](model& m, py::handle v) { m.attention.output_gate = flag(v, "output_gate"); }},
        {"sinks", [](const model& m) { return py::object(py::bool_(m.attention.sinks)); },
         [](model& m, py::handle v) { m.attention.sinks = flag(v, "sinks"); }},
        LLMCOST_INT(model, ffn.moe_layer_step, "moe_layer_step"),
        LLMCOST_INT(model, ffn.shared_expert_intermediate, "shared_expert_intermediate"),
        {"shared_expert_gate", [](const model& m) { return py::object(py::bool_(m.ffn.shared_expert_gate)); },
         [](model& m, py::handle v) { m.ffn.shared_expert_gate = flag(v, "shared_expert_gate"); }},
        {"state_kind",
         [](const model& m) {
             return py::object(py::str(m.pattern.state.kind == state_space_kind::gated_delta_net ? "gated_delta_net" : "mamba2"));
         },
         [](model& m, py::handle v) {
             const std::string k = str_arg(v, "state_kind");
             if (k == "mamba2") m.pattern.state.kind = state_space_kind::mamba2;
             else if (k == "gated_delta_net") m.pattern.state.kind = state_space_kind::gated_delta_net;
             else refuse("state_kind", v, "must be 'mamba2' or 'gated_delta_net'", "llmcost.argument.choice");
         }},
        LLMCOST_INT(model, pattern.state.heads, "state_heads"),
        LLMCOST_INT(model, pattern.state.head_dim, "state_head_dim"),
        LLMCOST_INT(model, pattern.state.state_dim, "state_dim"),
        LLMCOST_INT(model, pattern.state.groups, "state_groups"),
        LLMCOST_INT(model, pattern.state.conv_kernel, "state_conv_kernel"),
        {"state_conv_bias", [](const model& m) { return py::object(py::bool_(m.pattern.state.conv_bias)); },
         [](model& m, py::handle v) { m.pattern.state.conv_bias = flag(v, "state_conv_bias"); }},
        {"layer_counts",
         [](const model& m) {
             const model::layer_counts c = m.count_layers();
             return py::object(py::dict("full"_a = c.full, "window"_a = c.window, "chunked"_a = c.chunked,
                                        "state"_a = c.state, "ffn_only"_a = c.ffn_only));
         },
         {}},
        {"moe_layers", [](const model& m) { return py::object(py::int_(m.moe_layers())); }, {}},
        {"parameters", [](const model& m) { return py::object(py::float_(static_cast<double>(total_parameters(m)))); }, {}},
        {"active_parameters", [](const model& m) { return py::object(py::float_(static_cast<double>(active_parameters(m)))); }, {}},
        {"kv_bytes_per_token", [](const model& m) { return py::object(py::float_(kv_bytes_per_token(m).value())); }, {}},
        {"state_bytes_per_sequence", [](const model& m) { return py::object(py::float_(state_bytes_per_sequence(m).value())); }, {}},
    };
    return f;
}

const std::vector<field<hardware>>& hardware_fields() {
    static const std::vector<field<hardware>> f{
        {"name", [](const hardware& h) { return py::object(py::str(std::string(h.name))); },
         [](hardware& h, py::handle v) { h.name = name_arg(v, "name"); }},
        LLMCOST_QTY(hardware, gpu.hbm_capacity, "hbm_capacity_B"),
        LLMCOST_QTY(hardware, gpu.hbm_bandwidth, "hbm_bandwidth_B_per_s"),
        LLMCOST_QTY(hardware, gpu.dense.bf16, "bf16_flop_per_s"),
        LLMCOST_QTY(hardware, gpu.dense.fp8, "fp8_flop_per_s"),
        LLMCOST_QTY(hardware, gpu.dense.fp4, "fp4_flop_per_s"),
        LLMCOST_QTY(hardware, gpu.dense.int8, "int8_flop_per_s"),
        LLMCOST_QTY(hardware, gpu.board_power, "board_power_W"),
        LLMCOST_QTY(hardware, gpu.idle_power, "idle_power_W"),
        LLMCOST_QTY(hardware, scale_up.per_direction, "scale_up_B_per_s"),
        LLMCOST_INT(hardware, scale_up_domain, "scale_up_domain"),
        LLMCOST_QTY(hardware, scale_out.per_direction, "scale_out_B_per_s"),
        LLMCOST_INT(hardware, gpus_per_node, "gpus_per_node"),
        LLMCOST_QTY(hardware, capex_per_gpu, "capex_usd"),
        {"status", [](const hardware& h) { return py::object(py::str(std::string(h.status))); },
         [](hardware& h, py::handle v) { h.status = name_arg(v, "status"); }},
    };
    return f;
}
#undef LLMCOST_INT
#undef LLMCOST_QTY

/// `base` with the keyword arguments applied, then checked by the descriptor's own `validate()`.
template <class T>
T with_fields(T base, const py::kwargs& changes, const std::vector<field<T>>& fields, const char* type) {
    for (const auto& [k, v] : changes) {
        const std::string key = py::cast<std::string>(k);
        const field<T>* f = nullptr;
        for (const field<T>& x : fields)
            if (key == x.name) f = &x;
        if (f == nullptr || !f->set) {
            std::string known;
            for (const field<T>& x : fields)
                if (x.set) known += (known.empty() ? "" : ", ") + std::string(x.name);
            refuse(key, v,
                   std::string(f == nullptr ? "not a field of llmcost." : "is derived, not a field one sets, of llmcost.") +
                       type + "; its fields: " + known,
                   "llmcost.argument.unknown_field");
        }
        f->set(base, v);
    }
    base.validate();
    return base;
}

template <class T>
py::dict fields_dict(const T& x, const std::vector<field<T>>& fields) {
    py::dict d;
    for (const field<T>& f : fields) d[f.name] = f.get(x);
    return d;
}

template <class T>
std::string repr_of(const T& x, const std::vector<field<T>>& fields, const char* type) {
    std::string s = std::string(type) + "(";
    bool first = true;
    for (const field<T>& f : fields) {
        if (!f.set) continue;
        s += (first ? "" : ", ") + std::string(f.name) + "=" + std::string(py::repr(f.get(x)));
        first = false;
    }
    return s + ")";
}

template <class T>
void bind_fields(py::class_<T>& c, const std::vector<field<T>>& fields, const char* type) {
    for (const field<T>& f : fields) {
        auto get = f.get;
        c.def_property_readonly(f.name, [get](const T& x) { return get(x); });
    }
    c.def(py::init([&fields](const py::kwargs& kw) { return with_fields(T{}, kw, fields, "") ; }));
    c.def("replace", [&fields, type](const T& x, const py::kwargs& kw) { return with_fields(x, kw, fields, type); },
          "A copy with the given fields changed, checked as the constructor checks.");
    c.def("to_dict", [&fields](const T& x) { return fields_dict(x, fields); }, "The fields as a dict (SI, unit in the name).");
    c.def("__repr__", [&fields, type](const T& x) { return repr_of(x, fields, type); });
    c.def("__eq__", [](const T& a, py::handle b) { return py::isinstance<T>(b) && a == b.cast<const T&>(); });
    c.def("__hash__", [](const T& x) { return py::hash(py::str(std::string(x.name))); });
}

/// `rate=` at most the one bound every surface takes (`workload::max_requests_per_second`, the CLI's `--rate`); its
/// other rules (positive, finite) are the library's.
inline void require_rate_bound(py::handle rate, double per_s) {
    if (per_s > workload::max_requests_per_second)
        refuse("rate", rate, "must be at most 1e6 requests/s (workload::max_requests_per_second, the tool's --rate bound)",
               "llmcost.argument.range");
}

// ---- commands ------------------------------------------------------------------------------------

estimate_result estimate(py::handle model, py::handle hardware, py::handle input, py::handle output, py::handle batch,
                         py::handle saturate, py::handle tp, py::handle pp, py::handle ep, py::handle dp,
                         py::handle gpus, py::handle weights, py::handle kv, py::handle max_batch,
                         py::handle max_tokens, py::handle prefill_chunk, py::handle usd_per_gpu_hour,
                         py::handle utilisation, py::handle ignore_max_position, py::handle engine,
                         py::handle kv_memory_fraction, py::handle excluded_modules, py::handle kept_format,
                         py::handle eager_prompt, py::handle gemm_table, py::handle clock_MHz, py::handle quick_reduce,
                         py::handle kv_block_tokens, py::handle rate, py::handle host_loop, py::handle a2a_dispatch_cap, py::handle admission) {
    const deployment d = deployment_of({model, hardware, tp, pp, ep, dp, gpus, weights, kv, engine, kv_memory_fraction,
                                        excluded_modules, kept_format, eager_prompt, gemm_table, clock_MHz, quick_reduce,
                                        kv_block_tokens, host_loop, a2a_dispatch_cap});
    const request_shape r = shape_of(input, output);
    r.validate();
    check_context(d, r.input.value() + r.output.value(), ignore_max_position);
    const bool saturated = flag(saturate, "saturate");
    const double cap = whole_count(max_batch, "max_batch");
    const double per_s = rate.is_none() ? 0.0 : number(rate, "rate");
    if (!rate.is_none()) {  // as `llmcost estimate --rate` (which excludes --batch and --saturate)
        if (!(per_s > 0.0 && std::isfinite(per_s)))
            refuse("rate", rate, "must be positive and finite (requests/s)", "llmcost.argument.range");
        require_rate_bound(rate, per_s);
        if (!batch.is_none() || saturated)
            refuse("rate", rate, "excludes batch= and saturate=True (the batch is what the arrivals keep running)",
                   "llmcost.argument.excludes");
    }
    double b = estimate_options{}.batch;  // the library's default: saturate
    if (!batch.is_none()) {
        if (saturated) refuse("batch", batch, "excludes saturate=True (a batch is given, or the largest that fits)", "llmcost.argument.excludes");
        if (cap != 0.0) refuse("max_batch", max_batch, "excludes batch= (the cap bounds the saturated batch)", "llmcost.argument.excludes");
        b = whole_count(batch, "batch");
        if (b == 0.0)  // the library's 0 (saturate) is asked for by name, as `llmcost estimate --batch 0` is refused
            refuse("batch", batch, "must be at least one sequence (batch=None or saturate=True: the largest batch that fits)",
                   "llmcost.argument.range");
    }
    const scheduler_limits given{.max_batch = cap, .max_tokens_per_step = whole_count(max_tokens, "max_tokens"),
                                 .prefill_chunk = tokens(whole_count(prefill_chunk, "prefill_chunk"))};
    const estimate_options o{
        .batch = b,
        // with an engine, its scheduler defaults fill the limits not given (as `llmcost estimate --engine`)
        // kv_admission= over the engine's rule, as `llmcost estimate --kv-admission` (`with_kv_admission`)
        .limits = with_kv_admission(engine.is_none() ? given : with_engine_defaults(given, d.engine), kv_admission_arg(admission)),
        .site = catalog::seed_site,  // as `llmcost estimate` prices it
        .utilisation = number(utilisation, "utilisation"),
        .gpu_cost = usd_per_gpu_hour.is_none() ? estimate_options{}.gpu_cost
                                               : dollars_per_hour(number(usd_per_gpu_hour, "usd_per_gpu_hour")),
        .market_prices = catalog::gpu_market_prices};  // as `llmcost estimate` prices it
    // Online (rate=): the concurrency Little's law gives at the rate each dp rank sees (`serve_online_latency_at_rate`,
    // whose refusal of a rate the deployment does not sustain states the most it sustains, as `llmcost estimate --rate`).
    std::optional<online_latency> online;
    if (per_s > 0.0) online = serve_online_latency_at_rate(d, r, per_second(per_s), o.limits, "rate");
    const request_estimate e = online ? llmcost::estimate_point(d, r, online->point, o) : llmcost::estimate(d, r, o);
    const serving_point& s = online ? online->point : e.point;
    estimate_result x;
    x.model = d.m.name;
    x.hardware = d.hw.name;
    x.gpus = d.layout.gpus();
    x.tp = d.layout.tp;
    x.pp = d.layout.pp;
    x.ep = d.layout.ep;
    x.dp = d.layout.dp;
    x.weights = d.m.weights.name;
    x.excluded_modules = excluded_module_words_of(d.m.excluded);
    if (d.m.excluded.any()) x.kept_format = std::string(d.m.excluded.format.name);
    x.kv = d.m.kv_cache.name;
    x.input_tokens = r.input.value();
    x.output_tokens = r.output.value();
    x.batch = s.batch;
    x.limited_by = s.limited_by;
    x.ttft_s = s.ttft.value();
    x.tpot_s = s.tpot.value();
    x.e2e_s = s.e2e.value();
    x.prefill_s = s.prefill_time.value();
    x.decode_step_s = s.step_time.value();
    x.step_memory_bound = s.step.memory_bound();
    x.output_tokens_per_s = s.output_rate.value();
    x.output_tokens_per_s_per_gpu = s.output_rate_per_gpu.value();
    x.tokens_per_s_per_user = s.per_user.value();
    x.kv_bytes_per_token = e.kv_bytes_per_token.value();
    x.weight_bytes_per_gpu = e.weight_bytes_per_gpu.value();
    x.kv_capacity_tokens = e.kv_capacity_tokens.value();
    x.energy_j_per_output_token = e.gpu_energy_per_output_token.value();
    x.wall_energy_j_per_output_token = e.wall_energy_per_output_token.value();
    x.wh_per_request = e.gpu_energy_per_request.value() / watt_hours(1.0).value();
    x.wall_wh_per_request = e.wall_energy_per_request.value() / watt_hours(1.0).value();
    if (e.cost_known()) {
        x.usd_per_gpu_hour = e.gpu_cost.value() / dollars_per_hour(1.0).value();
        x.usd_per_million_output_tokens = e.cost_per_output_token.value() / dollars_per_million_tokens(1.0).value();
    }
    x.pricing = e.price.given ? "given" : std::string(to_string(e.price.basis));
    x.usd_basis = e.cost_known() ? basis_text(e.price, d.hw, o.site) : std::string("unknown");
    return x;
}

result kv(py::handle model, py::handle hardware, py::handle context, py::handle batch, py::handle tp, py::handle pp,
          py::handle ep, py::handle dp, py::handle gpus, py::handle weights, py::handle kv_format,
          py::handle ignore_max_position, py::handle engine, py::handle kv_memory_fraction, py::handle excluded_modules,
          py::handle kept_format, py::handle eager_prompt, py::handle kv_block_tokens, py::handle host_loop, py::handle a2a_dispatch_cap) {
    // eager_prompt= is taken to be refused saying why (kv prices memory, not a step), as `llmcost kv --eager-prompt`.
    if (!eager_prompt.is_none()) refuse("eager_prompt", eager_prompt, std::string(kv_prices_no_step), "llmcost.argument.not_taken");
    // host_loop= likewise (kv prices no scheduler pass), as `llmcost kv --host-loop`.
    if (!host_loop.is_none()) refuse("host_loop", host_loop, std::string(kv_prices_no_host_loop), "llmcost.argument.not_taken");
    // a2a_dispatch_cap= likewise (the padded expert runner's grid is a step's time), as `llmcost kv --a2a-dispatch-cap`.
    if (!a2a_dispatch_cap.is_none())
        refuse("a2a_dispatch_cap", a2a_dispatch_cap, std::string(kv_prices_no_dispatch_cap), "llmcost.argument.not_taken");
    const deployment d = deployment_of({model, hardware, tp, pp, ep, dp, gpus, weights, kv_format, engine, kv_memory_fraction,
                                        excluded_modules, kept_format, py::none(), py::handle{}, py::handle{}, py::handle{},
                                        kv_block_tokens, host_loop, a2a_dispatch_cap});
    const double ctx_tokens = whole_count(context, "context");
    const double sequences = whole_count(batch, "batch");
    require(positive_finite(ctx_tokens), d.m.name, "context (tokens)", ctx_tokens, "a context holds at least one token");
    require(positive_finite(sequences), d.m.name, "batch", sequences, "at least one sequence");
    check_context(d, ctx_tokens, ignore_max_position);
    const tokens_t ctx = tokens(ctx_tokens);
    // In the engine's whole KV blocks (`kv_block_slots`), as `max_sequences_at_context` counts them.
    const bytes_t per_sequence = kv_bytes_per_gpu_for_context(d, kv_block_slots(ctx, kv_block_size(d)));
    const bytes_t need = per_sequence * sequences;
    const memory_reserve reserve{};  // none given: the engine's own KV pool rule (kv_pool_per_gpu)
    require_weights_fit(d, reserve);  // as `llmcost kv`: no KV placement without the weights resident
    const spill_placement p = place_kv(d, need, reserve);
    const bytes_t budget = kv_budget_per_gpu(d, reserve);
    result out{.kind = "kv", .fields = {}};
    py::dict& r = out.fields;
    add_deployment(r, d);
    r["context_tokens"] = ctx_tokens;
    r["sequences"] = sequences;
    r["kv_bytes_per_token"] = kv_bytes_per_token(d.m).value();
    r["kv_bytes_per_token_per_gpu"] = kv_bytes_per_token_per_gpu(d).value();
    r["kv_bytes_per_sequence_per_gpu"] = per_sequence.value();
    r["kv_bytes_per_gpu"] = need.value();
    r["weight_bytes_per_gpu"] = weight_bytes_per_gpu(d).value();
    r["kv_budget_bytes_per_gpu"] = std::max(0.0, budget.value());
    r["in_hbm_B"] = p.in_hbm.value();
    r["in_host_B"] = p.in_host.value();
    r["in_storage_B"] = p.in_storage.value();
    r["overflow_B"] = p.overflow.value();
    r["restore_s"] = p.restore_time.value();
    r["max_context_tokens_at_batch_1"] = kv_capacity_whole_blocks(d, reserve).value();
    r["max_sequences_at_context"] = max_sequences(d, ctx, reserve);
    return out;
}

/// `llmcost simulate`: the discrete-event simulator (sim::simulate) on a generated workload (open
/// arrivals at `rate`, Poisson or gamma, or `concurrency` clients in a closed loop; lengths as the
/// library's length specs, "2000", "uniform:100:900", "lognormal:MEAN:SD[:MAX]") or a trace CSV.
result simulate(py::handle model, py::handle hardware, py::handle rate, py::handle concurrency, py::handle arrivals,
                py::handle cv, py::handle input_dist, py::handle output_dist, py::handle trace, py::handle requests,
                py::handle seed, py::handle max_batch, py::handle max_tokens, py::handle prefill_chunk,
                py::handle optimistic, py::handle ttft_target, py::handle tpot_target, py::handle tp, py::handle pp,
                py::handle ep, py::handle dp, py::handle gpus, py::handle weights, py::handle kv_format,
                py::handle dataset, py::handle preemption, py::handle prefix_hit_rate, py::handle prefill_servers,
                py::handle engine, py::handle kv_memory_fraction, py::handle excluded_modules, py::handle kept_format,
                py::handle eager_prompt, py::handle gemm_table, py::handle clock_MHz, py::handle quick_reduce,
                py::handle ignore_max_position, py::handle kv_block_tokens, py::handle host_loop, py::handle a2a_dispatch_cap) {
    const deployment d = deployment_of({model, hardware, tp, pp, ep, dp, gpus, weights, kv_format, engine, kv_memory_fraction,
                                        excluded_modules, kept_format, eager_prompt, gemm_table, clock_MHz, quick_reduce,
                                        kv_block_tokens, host_loop, a2a_dispatch_cap});
    const std::string preempt = str_arg(preemption, "preemption");
    if (preempt != "recompute" && preempt != "swap")
        refuse("preemption", preemption, "must be 'recompute' or 'swap'", "llmcost.argument.choice");
    const double per_s = rate.is_none() ? 0.0 : number(rate, "rate");
    require_rate_bound(rate, per_s);
    const double clients = concurrency.is_none() ? 0.0 : whole_count(concurrency, "concurrency");
    if (trace.is_none() && !(per_s > 0.0) && !(clients > 0.0))
        refuse("rate", rate, "simulate needs rate=R (open arrivals), concurrency=N (closed loop) or trace=FILE.csv",
               "llmcost.argument.missing");
    const double ttft = ttft_target.is_none() ? 0.0 : number(ttft_target, "ttft");
    const double tpot = tpot_target.is_none() ? 0.0 : number(tpot_target, "tpot");
    const scheduler_limits given{.max_batch = whole_count(max_batch, "max_batch"),
                                 .max_tokens_per_step = whole_count(max_tokens, "max_tokens"),
                                 .reserve_full_sequence = !flag(optimistic, "optimistic"),
                                 .prefill_chunk = tokens(whole_count(prefill_chunk, "prefill_chunk"))};
    // with an engine, its scheduler defaults fill the limits not given (as `llmcost simulate --engine`)
    const sim::options o{.limits = engine.is_none() ? given : with_engine_defaults(given, d.engine),
                         .requests = whole_count(requests, "requests"),
                         .seed = static_cast<std::uint64_t>(whole(seed, "seed")),
                         .keep_requests = ttft > 0 || tpot > 0,
                         .timeline_points = 0,
                         .preempt = preempt == "swap" ? sim::preemption::swap : sim::preemption::recompute,
                         .prefix_hit_rate = number(prefix_hit_rate, "prefix_hit_rate"),
                         .prefill_servers = whole_count(prefill_servers, "prefill_servers"),
                         .ignore_max_position = flag(ignore_max_position, "ignore_max_position")};
    sim::result r;
    if (!trace.is_none()) {
        const std::vector<workload::request> t = io::load_trace_csv(str_arg(trace, "trace"));
        r = sim::simulate_naming_lift(d, t, o, "ignore_max_position=True");
    } else {
        workload::traffic t{};
        if (!dataset.is_none()) {  // a dataset preset's lengths (tables/datasets.csv)
            const std::string name = str_arg(dataset, "dataset");
            const workload::dataset* set = catalog::find_dataset(name);
            std::string rule = "must be one of ";  // appended: GCC bug 105329's false -Wrestrict
            rule += catalog::dataset_names();
            if (set == nullptr) refuse("dataset", dataset, rule, "llmcost.workload.unknown_name");
            t = set->traffic_with({});
        } else {
            t.input = io::parse_length(str_arg(input_dist, "input_dist"), "input_dist");
            t.output = io::parse_length(str_arg(output_dist, "output_dist"), "output_dist");
        }
        const std::string how = str_arg(arrivals, "arrivals");
        if (clients > 0.0) t.arrivals = workload::closed_loop(clients);
        else if (how == "gamma") t.arrivals = workload::gamma(seconds(1.0 / per_s), number(cv, "cv"));
        else if (how == "poisson") t.arrivals = workload::poisson(seconds(1.0 / per_s));
        else refuse("arrivals", arrivals, "must be 'poisson' or 'gamma'", "llmcost.argument.choice");
        r = sim::simulate_naming_lift(d, t, o, "ignore_max_position=True");
    }
    result out{.kind = "simulate", .fields = {}};
    py::dict& f = out.fields;
    f["model"] = std::string(d.m.name);
    f["hardware"] = std::string(d.hw.name);
    f["gpus"] = d.layout.gpus();
    f["requests"] = r.completed;
    auto spread = [&f](const char* key, const sim::percentiles& p) {  // the tool's {"ttft_s": {"mean", …}}
        py::dict g;
        g["mean"] = p.mean;
        g["p50"] = p.p50;
        g["p90"] = p.p90;
        g["p99"] = p.p99;
        f[key] = g;
    };
    spread("ttft_s", r.ttft);
    spread("tpot_s", r.tpot);
    spread("itl_s", r.itl);
    spread("e2e_s", r.e2e);
    spread("queue_s", r.queue);
    f["output_tokens_per_s"] = r.output_tokens_per_s;
    f["output_tokens_per_s_per_gpu"] = r.output_tokens_per_s / d.layout.gpus();
    f["requests_per_s"] = r.requests_per_s;
    f["utilisation"] = r.utilisation;
    f["mean_batch"] = r.mean_batch;
    f["mean_kv_share"] = r.mean_kv;
    f["preemptions"] = r.preemptions;
    f["steps"] = r.steps;
    f["makespan_s"] = r.makespan;
    if (ttft > 0 || tpot > 0) f["goodput_requests_per_s"] = r.goodput(ttft > 0 ? ttft : 1e300, tpot > 0 ? tpot : 1e300);
    if (preempt == "swap") f["swap_s"] = r.swap_s;  // the features' figures when on, as the tool's
    if (r.prompt_tokens > 0 && o.prefix_hit_rate > 0) f["cached_prompt_share"] = r.cached_prompt_tokens / r.prompt_tokens;
    if (o.prefill_servers > 0) {
        f["prefill_servers"] = o.prefill_servers;
        f["decode_servers"] = r.servers - o.prefill_servers;
        f["kv_transfer_s"] = r.kv_transfer_s;
    }
    return out;
}

/// The draft head `drafter` names for `m` ('mtp', 'eagle'; the library's `draft_head_named`, as
/// `llmcost … --drafter` reads it); None for any other name or a Model (a draft model).
std::optional<draft_head> head_arg(py::handle drafter, const model& m) {
    if (!PyUnicode_Check(drafter.ptr())) return std::nullopt;
    return draft_head_named(str_arg(drafter, "drafter"), m);
}

/// How the tool names a draft head in its notes ("an EAGLE head", "the model's MTP module").
/// Speculation on or off, as every function with acceptance= and draft_tokens= reads them: off while
/// draft_tokens is None (acceptance then refused: it would be ignored); on, acceptance is required.
bool speculation_on(py::handle acceptance, py::handle draft_tokens) {
    if (draft_tokens.is_none()) {
        if (!acceptance.is_none())
            refuse("acceptance", acceptance, "needs draft_tokens= (speculation is off without it)", "llmcost.argument.missing");
        return false;
    }
    if (acceptance.is_none())
        refuse("acceptance", acceptance, "is required with draft_tokens= (the per-token acceptance rate)",
               "llmcost.argument.missing");
    return true;
}

/// The speculation of target `d` laid out as `at` (`llmcost disagg --spec`'s `drafter_for`): off while
/// draft_tokens is None; else `drafter`'s head ('eagle', 'mtp'), or `drafter` (a catalog model or a
/// Model) as a draft model on the target's GPU, layout, formats and engine; checked by the library.
speculative_decoding speculation_arg(const deployment& d, const deployment_args& at, py::handle acceptance,
                                     py::handle draft_tokens, py::handle drafter) {
    if (!speculation_on(acceptance, draft_tokens)) return {};
    speculative_decoding sd{.acceptance = number(acceptance, "acceptance"), .draft_tokens = whole(draft_tokens, "draft_tokens"),
                            .head = head_arg(drafter, d.m), .draft = {}};
    if (!sd.head) {
        static_cast<void>(entry_arg<llmcost::model>(drafter, "drafter", "Model"));  // refused naming drafter, not model
        deployment_args x = at;
        x.model = drafter;
        x.gpus = py::none();
        // The target checkpoint's kept modules are its own, not the drafter's (a dense drafter has no MLA kv_b), and so
        // is its projections' GEMM table; the prompt launch, the clock and the quantized all-reduce are the run's and stay.
        x.excluded_modules = py::none();
        x.kept_format = py::none();
        x.gemm_table = py::none();
        sd.draft = deployment_of(x);
    }
    sd.validate();
    return sd;
}

result spec(py::handle model, py::handle hardware, py::handle input, py::handle output, py::handle batch,
            py::handle acceptance, py::handle draft_tokens, py::handle drafter, py::handle target, py::handle tp,
            py::handle pp, py::handle ep, py::handle dp, py::handle gpus, py::handle weights, py::handle kv_format,
            py::handle ignore_max_position, py::handle engine, py::handle kv_memory_fraction, py::handle excluded_modules,
            py::handle kept_format, py::handle eager_prompt, py::handle gemm_table, py::handle clock_MHz,
            py::handle quick_reduce, py::handle kv_block_tokens, py::handle host_loop, py::handle a2a_dispatch_cap) {
    const deployment d = deployment_of({model, hardware, tp, pp, ep, dp, gpus, weights, kv_format, engine, kv_memory_fraction,
                                        excluded_modules, kept_format, eager_prompt, gemm_table, clock_MHz, quick_reduce,
                                        kv_block_tokens, host_loop, a2a_dispatch_cap});
    const request_shape r = shape_of(input, output);
    r.validate();
    check_context(d, r.input.value() + r.output.value(), ignore_max_position);
    const tokens_t context = mean_decode_context(r);
    const double b = whole_count(batch, "batch");
    require(positive_finite(b), d.m.name, "batch", b, "at least one sequence");
    const double a = number(acceptance, "acceptance");
    const int gamma = whole(draft_tokens, "draft_tokens");
    speculative_step step{};
    std::string by;
    const std::optional<draft_head> head = head_arg(drafter, d.m);
    if (head) {
        require_batch_fits(d, r, b);  // the weights and the batch fit the engine's pool, as `llmcost spec` checks
        step = speculative_step_for(d, *head, b, context, gamma);
        by = drafter_text(str_arg(drafter, "drafter"));
    } else {
        // The drafter on the target's hardware, layout, formats and engine, as `llmcost spec --drafter NAME` places it:
        // not the target checkpoint's kept modules (a dense drafter has no MLA kv_b) nor its projections' GEMM table;
        // the engine's prompt launch, the clock and the quantized all-reduce (the run's) stay.
        static_cast<void>(entry_arg<llmcost::model>(drafter, "drafter", "Model"));  // refused naming drafter, not model
        const deployment draft = deployment_of({drafter, hardware, tp, pp, ep, dp, py::none(), weights, kv_format, engine,
                                                kv_memory_fraction, py::none(), py::none(), eager_prompt, py::none(),
                                                clock_MHz, quick_reduce, kv_block_tokens, host_loop, a2a_dispatch_cap});
        // Its weights sit beside the target's: the batch must fit what both leave, as `llmcost spec` checks.
        const speculative_decoding sd{.acceptance = a, .draft_tokens = gamma, .head = {}, .draft = draft};
        require_draft_fits(d, {}, sd);  // a draft that does not fit is named, not the target (as `llmcost spec`)
        require_batch_fits(d, r, b, with_draft_resident({}, sd));
        step = speculative_step_for(d, draft, b, context, gamma);
        by = drafter_text(str_arg(drafter, "drafter"), draft.m.name);
    }
    result out{.kind = "spec", .fields = {}};
    py::dict& f = out.fields;
    add_deployment(f, d);
    f["drafter"] = by;
    f["batch"] = b;
    f["acceptance"] = a;
    f["draft_tokens"] = gamma;
    f["expected_tokens_per_pass"] = expected_tokens_per_pass(a, gamma);
    f["draft_s"] = step.draft_time.value();
    f["verify_s"] = step.verify_time.value();
    f["plain_step_s"] = step.plain_time.value();
    f["speedup"] = step.speedup(a);
    f["max_speedup"] = step.max_speedup();
    f["plain_tokens_per_s_per_user"] = step.plain_tokens_per_second().value();
    f["tokens_per_s_per_user"] = step.tokens_per_second(a).value();
    if (!target.is_none()) {
        const double t = number(target, "target");
        const auto need = speculative_min_acceptance(step, tokens_per_second(t));
        f["target_tokens_per_s_per_user"] = t;
        f["min_acceptance_for_target"] = need ? py::object(py::float_(*need)) : py::none();
    }
    return out;
}

result disagg(py::handle model, py::handle hardware, py::handle input, py::handle output, py::handle ttft,
              py::handle tpot, py::handle every_token, py::handle path, py::handle chunk, py::handle decode_hardware,
              py::handle decode_tp, py::handle tp, py::handle pp, py::handle ep, py::handle dp, py::handle gpus,
              py::handle weights, py::handle kv_format, py::handle ignore_max_position, py::handle engine,
              py::handle kv_memory_fraction, py::handle prefix_hit, py::handle acceptance, py::handle draft_tokens,
              py::handle drafter, py::handle excluded_modules, py::handle kept_format, py::handle eager_prompt,
              py::handle gemm_table, py::handle clock_MHz, py::handle quick_reduce, py::handle kv_block_tokens,
              py::handle host_loop, py::handle a2a_dispatch_cap) {
    // Both pools run the engine (each on its own GPU's profile) with the one KV memory fraction, as
    // `llmcost disagg --engine … --kv-memory-fraction …` builds them; both serve the one checkpoint.
    const deployment_args pre_at{model, hardware, tp, pp, ep, dp, gpus, weights, kv_format, engine, kv_memory_fraction,
                                 excluded_modules, kept_format, eager_prompt, gemm_table, clock_MHz, quick_reduce,
                                 kv_block_tokens, host_loop, a2a_dispatch_cap};
    const deployment pre = deployment_of(pre_at);
    const py::handle none = py::none();
    const deployment_args dec_at{model, decode_hardware.is_none() ? hardware : decode_hardware,
                                 decode_tp.is_none() ? tp : decode_tp, pp, ep, dp,
                                 decode_tp.is_none() ? gpus : none, weights, kv_format, engine,
                                 kv_memory_fraction, excluded_modules, kept_format, eager_prompt, gemm_table, clock_MHz,
                                 quick_reduce, kv_block_tokens, host_loop, a2a_dispatch_cap};
    const deployment dec = deployment_of(dec_at);
    request_shape r = shape_of(input, output);
    r.cached_fraction = prefix_hit_arg(prefix_hit);  // S6: only the rest is prefilled (`disagg --prefix-hit`)
    r.validate();
    check_context(pre, r.input.value() + r.output.value(), ignore_max_position);
    const std::string route = str_arg(path, "path");
    if (route != "scale-out" && route != "scale-up")
        refuse("path", path, "must be 'scale-out' or 'scale-up'", "llmcost.argument.choice");
    const kv_path where = route == "scale-up" ? kv_path::scale_up : kv_path::scale_out;
    const slo target{.ttft = seconds(number(ttft, "ttft")), .tpot = seconds(number(tpot, "tpot")),
                     .every_token = flag(every_token, "every_token")};
    const kv_transfer t = kv_transfer_for(pre, r.input, where);
    // Speculation (`disagg --spec`): the colocated steps speculate, and so does the decode pool, each
    // with its own drafter laid out as its pool.
    const speculative_decoding co_spec = speculation_arg(pre, pre_at, acceptance, draft_tokens, drafter);
    const speculative_decoding dis_spec = speculation_arg(dec, dec_at, acceptance, draft_tokens, drafter);
    const goodput_plan co =
        colocated_goodput(pre, r, target, {.prefill_chunk = tokens(whole_count(chunk, "chunk"))}, co_spec);
    const goodput_plan dis = disaggregated_goodput(pre, dec, r, target, where, {}, dis_spec);
    const double stall_batch = co.feasible ? co.decode_batch : 1.0;
    auto maybe = [](bool ok, double v) { return ok ? py::object(py::float_(v)) : py::none(); };
    result out{.kind = "disagg", .fields = {}};
    py::dict& f = out.fields;
    f["model"] = std::string(pre.m.name);
    f["input_tokens"] = r.input.value();
    f["output_tokens"] = r.output.value();
    f["kv_bytes_per_request"] = t.total.value();
    f["kv_bytes_per_prefill_gpu"] = t.per_gpu.value();
    f["kv_transfer_s"] = t.time.value();
    f["prefill_s"] = prefill_pass(pre, 1.0, r.computed(), r.cached()).time().value();  // the uncached tokens
    f["prefill_stall_s"] = prefill_stall(pre, stall_batch, r).value();
    f["colocated_feasible"] = co.feasible;
    f["colocated_batch"] = maybe(co.feasible, co.decode_batch);
    f["colocated_ttft_s"] = maybe(co.feasible, co.ttft.value());
    f["colocated_tpot_s"] = maybe(co.feasible, co.tpot.value());
    f["colocated_requests_per_s_per_gpu"] = co.requests_per_second_per_gpu;
    f["disaggregated_feasible"] = dis.feasible;
    f["disaggregated_decode_batch"] = maybe(dis.feasible, dis.decode_batch);
    f["disaggregated_prefill_batch"] = maybe(dis.feasible, dis.prefill_batch);
    f["disaggregated_ttft_s"] = maybe(dis.feasible, dis.ttft.value());
    f["disaggregated_tpot_s"] = maybe(dis.feasible, dis.tpot.value());
    f["prefill_per_decode_instances"] = maybe(dis.feasible, dis.prefill_instances_per_decode_instance);
    f["disaggregated_requests_per_s_per_gpu"] = dis.requests_per_second_per_gpu;
    f["goodput_gain"] = maybe(co.requests_per_second_per_gpu > 0,
                              dis.requests_per_second_per_gpu / co.requests_per_second_per_gpu);
    return out;
}

// ---- estimate's call: CPython's fast-call convention ------------------------------------------------
//
// `estimate` is the call a notebook makes in a loop, so its arguments are read the way CPython
// passes them (METH_FASTCALL: an array and a tuple of interned keyword names, matched by pointer)
// instead of through pybind11's dispatcher, which looks each of its names up in a dict: about
// a microsecond of the three a call may take.

/// A default of one of `estimate`'s parameters, as Python sees it: none (a required argument), None, a bool, an int or
/// a float of `value`.
enum class default_kind { required, none, boolean, integer, real };
struct estimate_parameter_spec {
    std::string_view name;
    default_kind kind;
    double value = 0;
};
/// `estimate`'s parameters, in its order: the ONE list its keyword names, its defaults (the library's own where it has
/// one) and its docstring's signature (`estimate_doc`, generated from it) are read from. Its count is held to
/// `estimate`'s arity below; tests/test_llmcost.py holds the .pyi stub's names and defaults to the docstring's.
constexpr parallel_layout default_layout{};
constexpr estimate_options default_options{};
constexpr auto estimate_spec = std::to_array<estimate_parameter_spec>({
    {"model", default_kind::required},
    {"hardware", default_kind::required},
    {"input", default_kind::required},
    {"output", default_kind::required},
    {"batch", default_kind::none},
    {"saturate", default_kind::boolean, 0},
    {"tp", default_kind::integer, default_layout.tp},
    {"pp", default_kind::integer, default_layout.pp},
    {"ep", default_kind::integer, default_layout.ep},
    {"dp", default_kind::none},
    {"gpus", default_kind::none},
    {"weights", default_kind::none},
    {"kv", default_kind::none},
    {"max_batch", default_kind::real, default_options.limits.max_batch},
    {"max_tokens", default_kind::real, default_options.limits.max_tokens_per_step},
    {"prefill_chunk", default_kind::real, default_options.limits.prefill_chunk.value()},
    {"usd_per_gpu_hour", default_kind::none},
    {"utilisation", default_kind::real, default_options.utilisation},
    {"ignore_max_position", default_kind::boolean, 0},
    {"engine", default_kind::none},
    {"kv_memory_fraction", default_kind::none},
    {"excluded_modules", default_kind::none},
    {"kept_format", default_kind::none},
    {"eager_prompt", default_kind::none},
    {"gemm_table", default_kind::none},
    {"clock_MHz", default_kind::none},
    {"quick_reduce", default_kind::none},
    {"kv_block_tokens", default_kind::none},
    {"rate", default_kind::none},
    {"host_loop", default_kind::none},
    {"a2a_dispatch_cap", default_kind::none},
    {"kv_admission", default_kind::none},
});
template <class R, class... A>
consteval std::size_t arity_of(R (*)(A...)) {
    return sizeof...(A);
}
static_assert(estimate_spec.size() == arity_of(&estimate),
              "estimate_spec must name every parameter of estimate(), in order: a parameter added to one is added to both");

struct estimate_parameter {
    const char* name;
    bool required;
    PyObject* key = nullptr;           ///< the name, interned
    PyObject* default_value = nullptr;  ///< owned for the life of the interpreter
};

std::vector<estimate_parameter>& estimate_parameters() {
    static std::vector<estimate_parameter> p;
    return p;
}
constexpr Py_ssize_t estimate_positional = 2;  // model, hardware; the others are keywords

/// The default of `p` as a Python object (null for a required argument).
py::object default_of(const estimate_parameter_spec& p) {
    switch (p.kind) {
        case default_kind::required: return {};
        case default_kind::none: return py::none();
        case default_kind::boolean: return py::bool_(p.value != 0.0);
        case default_kind::integer: return py::int_(static_cast<long long>(p.value));
        case default_kind::real: return py::float_(p.value);
    }
    return {};
}

/// `estimate`'s docstring: its signature, generated from `estimate_spec` (each default as Python writes it, `repr`),
/// then `estimate_description`. Built once, at import, before the function object is made.
std::string& estimate_doc() {
    static std::string doc;
    return doc;
}
/// The docstring's description, after the signature `set_up_estimate_parameters` writes from `estimate_spec`.
const char* const estimate_description =
    "Latency, throughput, memory, energy and $ of `model` (a catalog name or a Model) on `hardware` (a name or a "
    "Hardware) for requests of `input` prompt and `output` generated tokens, at `batch` concurrent sequences, or "
    "saturated (batch=None or saturate=True: the largest batch the KV cache and max_batch/max_tokens admit). "
    "The layout: tp, pp, ep, dp, or gpus (dp = gpus / (tp * pp)). Formats: weights=, kv= (llmcost.formats()). "
    "As `llmcost estimate` prices it (llmcost::estimate, the seed site's power and prices; usd_per_gpu_hour "
    "overrides the price). engine='trtllm', 'vllm' or 'sglang' prices it with that engine's profile for the "
    "GPU's architecture (tables/engines.csv), its scheduler defaults filling the limits not given; None: the "
    "reference engine. kv_memory_fraction=f is your launch's KV memory fraction, sized by the engine's own rule "
    "(vllm --gpu-memory-utilization: pool f*H - W - X; sglang --mem-fraction-static: f*(H - R) - W, R its memory resident at init; trtllm "
    "free_gpu_memory_fraction: f*(H - W - X); the reference engine: f*H - W - 2 GB), as `llmcost estimate "
    "--kv-memory-fraction`; None: the engine's own (tables/engines.csv). On CDNA4 (MI355X) sglang scales f in "
    "that rule by the profile's long_context_fraction_scale (tables/engines.csv) where the model's context exceeds "
    "llmcost::long_context_fraction_tokens (descriptors/engine.hpp), the launch's f included (its aiter attention backend: "
    "sgl-project/sglang v0.5.5+ server_args.py l.1419-1422 @7ae368efd; docs/kv-pool.md). excluded_modules= names the modules the "
    "checkpoint keeps out of weights= (a str, comma-separated, or a list: attention_in, attention_kv_b, attention_out, "
    "lm_head, embedding), their bytes and matmuls in kept_format= (None: bf16), as `llmcost estimate "
    "--excluded-modules --kept-format` (docs/checkpoint-composition.md). eager_prompt='overlap', 'serial' or '0' "
    "states how prompt steps launch without CUDA graphs, as `--eager-prompt` (read by TensorRT-LLM on Blackwell and "
    "SGLang; docs/trtllm-eager-prompt.md); None: the engine's rule. gemm_table= names a measured GEMM table the engine "
    "loads for the dense projections (`llmcost list gemm-tables`), refused for another GPU, "
    "format, model or TP degree; clock_MHz= the engine clock the run pins (the GPU's compute fractions and the table's "
    "times scale by it), as `llmcost estimate --gemm-table --clock` (docs/amd-hipblaslt-tables.md). quick_reduce='int4' "
    "turns on the engine's quantized TP all-reduce (SGLang's QuickReduce INT4 on ROCm, ROCM_QUICK_REDUCE_QUANTIZATION=INT4: "
    "the profile's curve prices the messages of 2 MiB to 2 GiB the custom kernel does not take), refused off SGLang, "
    "for a profile without the curve (MI355X's has it) or a TP other than 2, 4 or 8, as `llmcost estimate --quick-reduce "
    "int4` (docs/cdna-all-reduce.md section 7); None or 'none': not on. kv_block_tokens=B is your launch's paged KV block "
    "size (vllm --block-size, trtllm tokens_per_block, sglang --page-size): each sequence holds whole B-token blocks, as "
    "`llmcost estimate --kv-block-tokens` (docs/paged-kv-blocks.md); a whole number from 1 to 65,536; None: the engine's "
    "own (tables/engines.csv). rate=R prices Poisson arrivals of R requests/s for the whole deployment (excludes batch= "
    "and saturate=), as `llmcost estimate --rate`: a rate the deployment does not sustain is refused stating the most it "
    "sustains. host_loop='v0': your launch runs vLLM's V0 LLMEngine loop (vLLM <= 0.6, VLLM_USE_V1=0), each scheduler "
    "pass's host time a0 + a1 (tp - 1) + h n priced (docs/vllm-v0-host-loop.md), as `llmcost estimate --host-loop v0`, "
    "with the profile's CUDA graphs on: V0's per-token output processing h_t is paid only with graphs off, which no "
    "keyword turns off, so it is never paid here; "
    "refused (InvalidInput) off vLLM and for a profile without V0 pass figures (only vLLM on Hopper's are fitted); "
    "None: the engine's own loop. a2a_dispatch_cap=C: your launch's per-rank all-to-all dispatch cap in tokens (sglang "
    "SGLANG_MORI_NUM_MAX_DISPATCH_TOKENS_PER_RANK), the receive buffer of W x C rows a padded expert runner runs over "
    "in each MoE layer (docs/mi355x-disagg-decode.md section 6), as `llmcost estimate --a2a-dispatch-cap`; a whole "
    "number from 1 to 1,048,576; None: the engine's own (SGLang's 4096). "
    "kv_admission='reserve' or 'in_use' is your launch's KV admission policy, as `llmcost "
    "estimate --kv-admission`: reserve = each sequence's whole KV (input + output) at admission (trtllm's default, "
    "GUARANTEED_NO_EVICT), in_use = the KV it uses, its mean context plus half a block (trtllm MAX_UTILIZATION, MLPerf's "
    "batch_scheduler_policy max_util; vllm and sglang by default); None: the engine's rule (docs/paged-kv-blocks.md). "
    "Returns an Estimate with the fields of "
    "`llmcost estimate --format json`.";

void set_up_estimate_parameters() {
    auto& p = estimate_parameters();
    std::string signature = "estimate(";
    for (std::size_t i = 0; i < estimate_spec.size(); ++i) {
        const estimate_parameter_spec& s = estimate_spec[i];
        py::object d = default_of(s);
        if (i > 0) signature += ", ";
        if (i == static_cast<std::size_t>(estimate_positional)) signature += "*, ";  // the others are keywords
        signature += s.name;
        if (d) {  // appended, not "=" + …: GCC bug 105329
            signature += '=';
            signature += py::repr(d).cast<std::string>();
        }
        p.push_back({.name = s.name.data(), .required = !d, .key = PyUnicode_InternFromString(s.name.data()),
                     .default_value = d ? d.release().ptr() : nullptr});
    }
    signature += ")\n--\n\n";
    signature += estimate_description;
    estimate_doc() = std::move(signature);
}

PyObject* estimate_call(PyObject*, PyObject* const* args, Py_ssize_t nargs, PyObject* kwnames) {
    const auto& params = estimate_parameters();
    constexpr std::size_t count_of = estimate_spec.size();
    std::array<PyObject*, count_of> a{};
    for (std::size_t i = 0; i < count_of; ++i) a[i] = params[i].default_value;
    if (nargs > estimate_positional) {
        PyErr_Format(PyExc_TypeError, "estimate() takes 2 positional arguments (model, hardware) but %zd were given; "
                     "the others are keywords (input=, output=, batch=, tp=, ...)", nargs);
        return nullptr;
    }
    for (Py_ssize_t i = 0; i < nargs; ++i) a[static_cast<std::size_t>(i)] = args[i];
    const Py_ssize_t nk = kwnames == nullptr ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t k = 0; k < nk; ++k) {
        PyObject* name = PyTuple_GET_ITEM(kwnames, k);
        std::size_t j = 0;
        while (j < count_of && params[j].key != name) ++j;
        if (j == count_of) {  // not interned the same way: compare the text
            j = 0;
            while (j < count_of && PyUnicode_Compare(params[j].key, name) != 0) ++j;
        }
        if (j == count_of) {
            PyErr_Format(PyExc_TypeError, "estimate() got an unexpected keyword argument '%U'", name);
            return nullptr;
        }
        if (static_cast<Py_ssize_t>(j) < nargs) {
            PyErr_Format(PyExc_TypeError, "estimate() got multiple values for argument '%U'", name);
            return nullptr;
        }
        a[j] = args[nargs + k];
    }
    for (std::size_t j = 0; j < count_of; ++j)
        if (a[j] == nullptr) {
            PyErr_Format(PyExc_TypeError, "estimate() missing required argument '%s'", params[j].name);
            return nullptr;
        }
    try {
        try {
            // Every argument in order, as many as `estimate_spec` (held to estimate()'s arity above).
            estimate_result r = std::apply([](auto... x) { return estimate(py::handle(x)...); }, a);
            return py::cast(std::move(r)).release().ptr();
        } catch (const py::error_already_set&) {
            throw;
        } catch (...) {
            translate(std::current_exception());  // raises the Python exception (error_already_set) …
            throw;                                // … or the exception is not one of the library's
        }
    } catch (py::error_already_set& e) {
        e.restore();
    } catch (const std::bad_alloc&) {
        PyErr_NoMemory();
    } catch (const std::exception& e) {
        PyErr_SetString(PyExc_RuntimeError, e.what());
    }
    return nullptr;
}


PyMethodDef estimate_method{"estimate", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&estimate_call)),
                            METH_FASTCALL | METH_KEYWORDS, nullptr};  // ml_doc: estimate_doc(), set at import

// ---- sweeps --------------------------------------------------------------------------------------

/// A sweep's result, kept alive by the NumPy arrays that view it.
struct sweep_py {
    plan::sweep_result res;
};

/// A read-only NumPy view of `n` values at `data`, owned by `owner` (no copy).
template <class T>
py::array view(py::handle owner, const T* data, Eigen::Index n) {
    py::array_t<T> a({static_cast<py::ssize_t>(n)}, {static_cast<py::ssize_t>(sizeof(T))}, data, owner);
    py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return py::array(std::move(a));
}

/// A new array of `n` values, value i = f(i): the figures the result derives instead of storing.
template <class T, class F>
py::array computed(Eigen::Index n, F f) {
    py::array_t<T> a(static_cast<py::ssize_t>(n));
    T* p = a.mutable_data();
    for (Eigen::Index i = 0; i < n; ++i) p[i] = f(i);
    return py::array(std::move(a));
}

std::vector<serving_formats> formats_axis(py::handle weights, py::handle kv_format,
                                          const std::optional<excluded_modules>& kept);

/// The memory of the last sweep result Python let go of. `plan::sweep(grid, res)` reuses a
/// result's arrays when the grid has as many points, and first touching fresh memory is most of a
/// large sweep's time (a million points: about 50 ms reused, 140 ms fresh, on the development VM);
/// a result is let go only when no NumPy view of it is left, so its memory is free to reuse.
/// Touched with the GIL held only.
plan::sweep_result& spare_sweep() {
    static plan::sweep_result spare;
    return spare;
}

std::shared_ptr<sweep_py> fresh_sweep() {
    auto* p = new sweep_py{.res = std::move(spare_sweep())};
    spare_sweep() = plan::sweep_result{};
    return std::shared_ptr<sweep_py>(p, [](sweep_py* q) {
        spare_sweep() = std::move(q->res);
        delete q;
    });
}

/// The speculation a sweep, frontier or plan prices (`sweep_grid::speculation`): off while
/// `draft_tokens` is None; else a draft head of the model ('eagle', or 'mtp' for a model that ships
/// MTP modules) at acceptance α and γ draft tokens, checked by the library (`speculative_decoding`).
speculative_decoding head_speculation_arg(const model& m, py::handle acceptance, py::handle draft_tokens,
                                          py::handle drafter) {
    if (!speculation_on(acceptance, draft_tokens)) return {};
    static_cast<void>(str_arg(drafter, "drafter"));  // a name, as the tool's --drafter
    speculative_decoding sd{.acceptance = number(acceptance, "acceptance"), .draft_tokens = whole(draft_tokens, "draft_tokens"),
                            .head = head_arg(drafter, m), .draft = {}};
    if (!sd.head)
        refuse("drafter", drafter, "must be 'eagle' or 'mtp': a sweep lays out every deployment its own way, so a "
               "separate draft model is priced by estimate", "llmcost.argument.choice");
    sd.validate();
    return sd;
}

/// The engine on each of `gpus`, as `llmcost frontier|plan --engine … --kv-memory-fraction …` read them
/// (`engines_for`): every GPU must run the engine (refused otherwise, naming the alternatives), with
/// kv_memory_fraction= the f of its KV pool rule (the reference engine's where no engine is named).
/// Empty when neither is given: the sweep's reference engine.
/// eager_prompt= ('overlap', 'serial', '0'; `eager_prompt_arg`) states how each engine's prompt steps launch, and
/// kv_block_tokens= each engine's paged KV block (`kv_block_tokens_arg`, as `llmcost frontier|plan --kv-block-tokens`),
/// host_loop='v0' each engine's V0 loop (`host_loop_arg`: every GPU's engine must be vLLM with V0 pass figures; the
/// tool's frontier and plan take no --host-loop, its estimate/kv/simulate/spec/disagg do).
std::vector<engine_profile> engines_arg(py::handle engine, py::handle kv_memory_fraction, py::handle kv_block_tokens,
                                        const std::vector<hardware>& gpus, py::handle eager_prompt, py::handle host_loop,
                                        py::handle a2a_dispatch_cap) {
    std::vector<engine_profile> engines;
    const std::optional<prompt_launch_mode> p = eager_prompt_arg(eager_prompt);
    if (engine.is_none() && kv_memory_fraction.is_none() && kv_block_tokens.is_none() && !p && host_loop.is_none() &&
        a2a_dispatch_cap.is_none())
        return engines;
    for (const hardware& h : gpus) {
        engines.push_back(a2a_dispatch_cap_arg(
            host_loop_arg(kv_block_tokens_arg(kv_memory_fraction_arg(engine_arg(engine, h), kv_memory_fraction), kv_block_tokens),
                          host_loop),
            a2a_dispatch_cap));
        if (p) engines.back().overheads.prompt_launch = *p;
    }
    return engines;
}

/// The run's launch on every deployment of a sweep, a frontier or a plan, as `llmcost frontier|plan --gemm-table …
/// --clock … --quick-reduce …` set it: quick_reduce='int4' turns each GPU's engine's quantized all-reduce on by the
/// library's rule (`quick_reduce_engines`, as the tool's: each layout's TP group is `deployment::validate`'s, a layout
/// left out; the reference engine where none is named, refused), gemm_table= the GEMM
/// table every deployment loads (`sweep_grid::projection_table`: a deployment it does not fit left out) and clock_MHz=
/// the engine clock the runs pin (`sweep_grid::clock_MHz`: the GPUs' clock rule, `sweep_grid::validate`).
struct sweep_launch {
    std::vector<engine_profile> engines;
    const gemm_table* table = nullptr;
    double clock_MHz = 0;
};

sweep_launch launch_arg(std::vector<engine_profile> engines, std::size_t gpus, py::handle gemm_table, py::handle clock_MHz,
                        py::handle quick_reduce) {
    if (quick_reduce_arg(quick_reduce)) engines = quick_reduce_engines(std::move(engines), gpus, "quick_reduce");
    return {.engines = std::move(engines), .table = gemm_table_arg(gemm_table), .clock_MHz = clock_arg(clock_MHz)};
}

std::shared_ptr<sweep_py> sweep(py::handle model, py::handle hardware, py::handle input, py::handle output,
                                py::handle batch, py::handle tp, py::handle pp, py::handle ep, py::handle dp,
                                py::handle weights, py::handle kv_format, py::handle formats,
                                py::handle disaggregated, py::handle max_batch, py::handle ignore_max_position,
                                py::handle prefix_hit, py::handle acceptance, py::handle draft_tokens,
                                py::handle drafter, py::handle engine, py::handle kv_memory_fraction,
                                py::handle excluded_modules, py::handle kept_format, py::handle eager_prompt,
                                py::handle gemm_table, py::handle clock_MHz, py::handle quick_reduce,
    py::handle kv_block_tokens, py::handle host_loop, py::handle a2a_dispatch_cap) {
    plan::sweep_grid g{.m = model_arg(model)};
    for (const py::object& h : items(hardware)) g.gpus.push_back(hardware_arg(h));
    sweep_launch run = launch_arg(engines_arg(engine, kv_memory_fraction, kv_block_tokens, g.gpus, eager_prompt, host_loop, a2a_dispatch_cap), g.gpus.size(), gemm_table,
                                  clock_MHz, quick_reduce);
    g.engines = std::move(run.engines);
    g.projection_table = run.table;
    g.clock_MHz = run.clock_MHz;
    const std::optional<llmcost::excluded_modules> kept = excluded_modules_arg(excluded_modules, kept_format);
    if (formats.is_none()) {
        g.formats = formats_axis(weights, kv_format, kept);
    } else {
        if (!weights.is_none() || !kv_format.is_none())
            refuse("formats", formats, "excludes weights= and kv= (formats names the pairs)", "llmcost.argument.excludes");
        g.formats.clear();
        for (const py::object& pair : items(formats)) {
            const std::vector<py::object> wk = items(pair);
            if (wk.size() != 2 || PyUnicode_Check(pair.ptr()))
                refuse("formats", pair, "each entry is a pair (weights, kv), None for the model's own", "llmcost.argument.type");
            g.formats.push_back({.weights = format_arg(wk[0], "weights"), .kv = format_arg(wk[1], "kv"), .kept = kept});
        }
    }
    require_weights_for_kept(g.formats, excluded_modules);
    g.layouts = plan::expand(layout_axes_arg(tp, pp, ep, dp, {}));
    g.modes.clear();
    for (const py::object& m : items(disaggregated)) g.modes.push_back({.disaggregated = flag(m, "disaggregated")});
    const std::vector<double> ins = whole_counts(input, "input"), outs = whole_counts(output, "output");
    // The shapes are input x output: bounded as the grid is, before they are built.
    if (static_cast<double>(ins.size()) * static_cast<double>(outs.size()) > plan::sweep_grid::max_points)
        refuse_long_axis("input x output", static_cast<double>(ins.size()) * static_cast<double>(outs.size()));
    for (double in : ins)
        for (double out : outs)
            g.shapes.push_back({.input = tokens(in), .output = tokens(out), .cached_fraction = prefix_hit_arg(prefix_hit)});
    g.speculation = head_speculation_arg(g.m, acceptance, draft_tokens, drafter);
    g.batches = whole_counts(batch, "batch");
    g.limits.max_batch = whole_count(max_batch, "max_batch");
    g.ignore_max_position = flag(ignore_max_position, "ignore_max_position");
    auto out = fresh_sweep();
    {
        const py::gil_scoped_release unlocked;  // the sweep touches no Python object
        plan::sweep(g, out->res);
    }
    return out;
}

py::dict coordinates(const plan::sweep_result& s) {
    const Eigen::Index n = s.size();
    py::array_t<std::int32_t> gpu(n), format(n), tp(n), pp(n), ep(n), dp(n);
    py::array_t<bool> disagg(n);
    py::array_t<double> input(n), output(n), batch(n);
    auto* pg = gpu.mutable_data();
    auto* pf = format.mutable_data();
    auto* pt = tp.mutable_data();
    auto* pq = pp.mutable_data();
    auto* pe = ep.mutable_data();
    auto* pd = dp.mutable_data();
    auto* pm = disagg.mutable_data();
    auto* pi = input.mutable_data();
    auto* po = output.mutable_data();
    auto* pb = batch.mutable_data();
    for (Eigen::Index i = 0; i < n; ++i) {
        const plan::sweep_block& b = s.blocks[s.block_of(i)];
        const request_shape& r = s.grid.shapes[s.shape_of(i)];
        pg[i] = static_cast<std::int32_t>(b.gpu);
        pf[i] = static_cast<std::int32_t>(b.format);
        pt[i] = b.d.layout.tp;
        pq[i] = b.d.layout.pp;
        pe[i] = b.d.layout.ep;
        pd[i] = b.d.layout.dp;
        pm[i] = b.how.disaggregated;
        pi[i] = r.input.value();
        po[i] = r.output.value();
        pb[i] = s.grid.batches[s.batch_of(i)];
    }
    return py::dict("gpu"_a = gpu, "format"_a = format, "tp"_a = tp, "pp"_a = pp, "ep"_a = ep, "dp"_a = dp,
                    "disaggregated"_a = disagg, "input_tokens"_a = input, "output_tokens"_a = output, "batch"_a = batch);
}

std::vector<std::string> status_names() {
    std::vector<std::string> v;
    for (auto s : {plan::point_status::ok, plan::point_status::invalid_deployment, plan::point_status::weights_do_not_fit,
                   plan::point_status::beyond_max_position, plan::point_status::over_kv_capacity,
                   plan::point_status::prompt_above_step_cap})
        v.emplace_back(plan::to_string(s));
    return v;
}

/// The formats axis of a sweep or a plan: weights × kv, each a name, None or a list of them.
std::vector<serving_formats> formats_axis(py::handle weights, py::handle kv_format,
                                          const std::optional<excluded_modules>& kept) {
    std::vector<serving_formats> out;
    for (const py::object& w : items(weights))
        for (const py::object& k : items(kv_format))
            out.push_back({.weights = format_arg(w, "weights"), .kv = format_arg(k, "kv"), .kept = kept});
    return out;
}

/// The frontier's points of a sweep, as the `llmcost frontier` tool lists them (each field a list).
result frontier_points(const plan::sweep_result& s, const std::vector<Eigen::Index>& front) {
    result out{.kind = "frontier", .fields = {}};
    py::list index, hw, w, excluded, kept, k, tp, pp, ep, dp, gpus, mode, batch, ttft, tpot, user, per_gpu, pd;
    for (Eigen::Index i : front) {
        const plan::sweep_point p = s.point(i);
        const deployment& d = p.block->d;
        const bool dis = p.block->how.disaggregated;
        index.append(i);
        hw.append(std::string(d.hw.name));
        w.append(std::string(d.m.weights.name));
        excluded.append(excluded_modules_of(d.m));
        kept.append(kept_format_of(d.m));
        k.append(std::string(d.m.kv_cache.name));
        tp.append(d.layout.tp);
        pp.append(d.layout.pp);
        ep.append(d.layout.ep);
        dp.append(d.layout.dp);
        gpus.append(d.instance_gpus());
        mode.append(dis ? "disaggregated" : "colocated");
        batch.append(p.batch);
        ttft.append(p.ttft.value());
        tpot.append(p.tpot.value());
        user.append(p.per_user.value());
        per_gpu.append(p.output_rate_per_gpu.value());
        pd.append(dis ? py::object(py::float_(p.prefill_per_decode)) : py::none());
    }
    py::dict& f = out.fields;
    f["index"] = index;
    f["hardware"] = hw;
    f["weights"] = w;
    f["excluded_modules"] = excluded;
    f["kept_format"] = kept;
    f["kv"] = k;
    f["tp"] = tp;
    f["pp"] = pp;
    f["ep"] = ep;
    f["dp"] = dp;
    f["instance_gpus"] = gpus;
    f["mode"] = mode;
    f["batch"] = batch;
    f["ttft_s"] = ttft;
    f["tpot_s"] = tpot;
    f["tokens_per_s_per_user"] = user;
    f["output_tokens_per_s_per_gpu"] = per_gpu;
    f["prefill_per_decode"] = pd;
    return out;
}

slo targets(py::handle ttft, py::handle tpot) {
    return {.ttft = seconds(number(ttft, "ttft")), .tpot = seconds(number(tpot, "tpot"))};
}

result frontier(py::handle model, py::handle hardware, py::handle input, py::handle output, py::handle ttft,
                py::handle tpot, py::handle batch, py::handle max_batch, py::handle tp, py::handle pp, py::handle ep, py::handle dp,
                py::handle weights, py::handle kv_format, py::handle disaggregated, py::handle ignore_max_position,
                py::handle prefix_hit, py::handle acceptance, py::handle draft_tokens, py::handle drafter,
                py::handle engine, py::handle kv_memory_fraction, py::handle excluded_modules, py::handle kept_format,
                py::handle eager_prompt, py::handle gemm_table, py::handle clock_MHz, py::handle quick_reduce,
    py::handle kv_block_tokens, py::handle host_loop, py::handle a2a_dispatch_cap) {
    plan::sweep_grid g{.m = model_arg(model)};
    for (const py::object& h : items(hardware)) g.gpus.push_back(hardware_arg(h));
    sweep_launch run = launch_arg(engines_arg(engine, kv_memory_fraction, kv_block_tokens, g.gpus, eager_prompt, host_loop, a2a_dispatch_cap), g.gpus.size(), gemm_table,
                                  clock_MHz, quick_reduce);
    g.engines = std::move(run.engines);
    g.projection_table = run.table;
    g.clock_MHz = run.clock_MHz;
    g.formats = formats_axis(weights, kv_format, excluded_modules_arg(excluded_modules, kept_format));
    require_weights_for_kept(g.formats, excluded_modules);
    // As `llmcost frontier`: dp from ep ÷ tp by default (the DEP layouts).
    g.layouts = plan::expand(layout_axes_arg(tp, pp, ep, dp, {.dp = {0}}));
    g.modes.clear();
    for (const py::object& m : items(disaggregated)) g.modes.push_back({.disaggregated = flag(m, "disaggregated")});
    g.shapes = {shape_of(input, output)};
    g.shapes[0].cached_fraction = prefix_hit_arg(prefix_hit);
    g.speculation = head_speculation_arg(g.m, acceptance, draft_tokens, drafter);
    if (!batch.is_none()) g.batches = whole_counts(batch, "batch");
    else g.batches = max_batch.is_none() ? plan::batch_ladder() : plan::batch_ladder(whole_count(max_batch, "max_batch"));
    g.ignore_max_position = flag(ignore_max_position, "ignore_max_position");
    const slo target = targets(ttft, tpot);
    plan::sweep_result s;
    std::vector<Eigen::Index> front;
    {
        const py::gil_scoped_release unlocked;
        plan::sweep(g, s);
        front = plan::frontier(s, target);
    }
    plan::require_priceable(s);  // nothing priced at all (every layout breaks a rule): the library's refusal, as the tool's
    return frontier_points(s, front);
}

result fleet_plan(py::handle model, py::handle hardware, py::handle rate, py::handle mix, py::handle ttft,
                  py::handle tpot, py::handle weights, py::handle kv_format, py::handle max_gpus,
                  py::handle max_instance_gpus, py::handle usd_per_gpu_hour, py::handle prices,
                  py::handle utilisation, py::handle colocated_only, py::handle ignore_max_position,
                  py::handle prefix_hit, py::handle acceptance, py::handle draft_tokens, py::handle drafter,
                  py::handle engine, py::handle kv_memory_fraction, py::handle excluded_modules, py::handle kept_format,
                  py::handle eager_prompt, py::handle gemm_table, py::handle clock_MHz, py::handle quick_reduce,
    py::handle kv_block_tokens, py::handle host_loop, py::handle a2a_dispatch_cap) {
    const llmcost::model m = model_arg(model);
    const double per_s = number(rate, "rate");
    require_rate_bound(rate, per_s);
    plan::traffic t{.requests_per_second = per_second(per_s), .target = targets(ttft, tpot)};
    for (const py::object& c : items(mix)) {
        const std::vector<py::object> parts = items(c);
        if (parts.size() != 3 || PyUnicode_Check(c.ptr()))
            refuse("mix", c, "each class is (input, output, share)", "llmcost.argument.type");
        t.mix.push_back({.share = number(parts[2], "mix share"),
                         .shape = {.input = tokens(whole_count(parts[0], "mix input")), .output = tokens(whole_count(parts[1], "mix output")),
                                   .cached_fraction = prefix_hit_arg(prefix_hit)}});  // every class alike (S6)
    }
    t.validate();
    if (!flag(ignore_max_position, "ignore_max_position"))
        for (const plan::traffic_class& k : t.mix)
            require_within_max_position(m, k.shape.input.value() + k.shape.output.value(),
                                        "; pass ignore_max_position=True to price it anyway");
    plan::fleet_options o{.formats = formats_axis(weights, kv_format, excluded_modules_arg(excluded_modules, kept_format)),
                          .max_gpus = whole_count(max_gpus, "max_gpus"),
                          .site = catalog::seed_site,  // as `llmcost plan` prices it
                          .utilisation = number(utilisation, "utilisation")};
    require_weights_for_kept(o.formats, excluded_modules);
    o.max_instance_gpus = whole(max_instance_gpus, "max_instance_gpus");
    if (!usd_per_gpu_hour.is_none()) o.gpu_cost = dollars_per_hour(number(usd_per_gpu_hour, "usd_per_gpu_hour"));
    if (flag(colocated_only, "colocated_only")) o.prefill_batches.clear();
    o.speculation = head_speculation_arg(m, acceptance, draft_tokens, drafter);
    for (const py::object& h : items(hardware)) o.gpus.push_back(hardware_arg(h));
    sweep_launch run = launch_arg(engines_arg(engine, kv_memory_fraction, kv_block_tokens, o.gpus, eager_prompt, host_loop, a2a_dispatch_cap), o.gpus.size(), gemm_table,
                                  clock_MHz, quick_reduce);
    o.engines = std::move(run.engines);
    o.projection_table = run.table;
    o.clock_MHz = run.clock_MHz;
    if (!prices.is_none()) {
        if (!py::isinstance<py::dict>(prices))
            refuse("prices", prices, "must be a dict {GPU name: $ per GPU-hour}", "llmcost.argument.type");
        for (const auto& [name, usd] : prices.cast<py::dict>())
            o.prices.push_back({.hardware = named<llmcost::hardware>(name, "prices").name,
                                .per_gpu = dollars_per_hour(number(usd, "prices"))});
    }
    plan::fleet_result res;
    {
        const py::gil_scoped_release unlocked;
        res = plan::cheapest_fleet(m, t, o);
    }
    auto row = [](const plan::deployment_plan& p) {
        const bool dis = p.how.disaggregated;
        auto maybe = [dis](double v) { return dis ? py::object(py::float_(v)) : py::none(); };
        return py::dict("hardware"_a = std::string(p.d.hw.name), "weights"_a = std::string(p.d.m.weights.name),
                        "excluded_modules"_a = excluded_modules_of(p.d.m), "kept_format"_a = kept_format_of(p.d.m),
                        "kv"_a = std::string(p.d.m.kv_cache.name), "tp"_a = p.d.layout.tp, "pp"_a = p.d.layout.pp,
                        "ep"_a = p.d.layout.ep, "dp"_a = p.d.layout.dp,
                        "mode"_a = dis ? "disaggregated" : "colocated", "gpus"_a = p.gpus,
                        "instances"_a = dis ? p.prefill_instances + p.decode_instances : p.instances,
                        "prefill_instances"_a = maybe(p.prefill_instances), "decode_instances"_a = maybe(p.decode_instances),
                        "prefill_per_decode"_a = maybe(p.prefill_per_decode), "batch"_a = p.batch,
                        "prefill_batch"_a = maybe(p.how.prefill_batch), "ttft_s"_a = p.ttft.value(),
                        "tpot_s"_a = p.tpot.value(), "load"_a = p.load,
                        "usd_per_gpu_hour"_a = p.gpu_cost.value() / dollars_per_hour(1.0).value(),
                        "pricing"_a = std::string(p.price.given ? "given" : to_string(p.price.basis)),
                        "usd_per_hour"_a = p.fleet_cost.value() / dollars_per_hour(1.0).value(),
                        "usd_per_million_output_tokens"_a = p.cost_per_output_token.value() / dollars_per_million_tokens(1.0).value(),
                        "usd_per_million_tokens"_a = p.cost_per_token.value() / dollars_per_million_tokens(1.0).value(),
                        "gpu_power_W"_a = p.gpu_power.value(), "wall_power_W"_a = p.wall_power.value());
    };
    result out{.kind = "plan", .fields = {}};
    py::list options;
    for (const plan::deployment_plan& p : res.options) options.append(row(p));
    out.fields["best"] = res.best ? py::object(row(*res.best)) : py::none();
    out.fields["options"] = options;
    out.fields["skipped"] = py::cast(res.skipped);
    out.fields["points"] = res.points;
    return out;
}

result calibrate(py::handle measurements, py::handle free, py::handle include_check_rows, py::handle coverage) {
    const std::string path = py::module_::import("os").attr("fspath")(measurements).cast<std::string>();
    plan::calibration_options o{.include_check_rows = flag(include_check_rows, "include_check_rows")};
    if (!free.is_none()) {
        o.free.clear();
        for (const py::object& name : items(free)) {
            const std::optional<plan::parameter> p = plan::parameter_named(str_arg(name, "free"));
            if (!p) {
                std::string known;
                for (plan::parameter q : plan::all_parameters) known += (known.empty() ? "" : ", ") + std::string(plan::to_string(q));
                refuse("free", name, "not an efficiency parameter; known: " + known, "llmcost.argument.choice");
            }
            o.free.push_back(*p);
        }
    }
    const bool banded = !coverage.is_none();  // (a bool and a double: g++ -O3 warns of an optional<double> here)
    const double band = banded ? number(coverage, "coverage") : 0.0;
    const std::vector<plan::measurement> rows = io::load_measurements_csv(path);
    const plan::calibration_result fit = plan::calibrate(rows, o);
    result out{.kind = "calibrate", .fields = {}};
    py::dict& f = out.fields;
    f["hardware"] = std::string(fit.base.name);
    f["rows"] = fit.rows;
    f["dof"] = fit.dof;
    f["iterations"] = fit.iterations;
    f["converged"] = fit.converged;
    f["stop_reason"] = fit.stop_reason;
    f["rss"] = fit.rss;
    f["sigma"] = fit.sigma;
    py::dict params;
    for (const plan::fitted_parameter& p : fit.parameters)
        params[py::str(std::string(plan::to_string(p.which)))] =
            py::dict("value"_a = p.value, "standard_error"_a = p.standard_error, "start"_a = p.start,
                     "at_bound"_a = p.at_bound, "unit"_a = std::string(plan::unit_of(p.which)));
    f["parameters"] = params;
    const auto n = static_cast<py::ssize_t>(fit.parameters.size());
    py::array_t<double> corr({n, n});
    auto c = corr.mutable_unchecked<2>();
    for (py::ssize_t i = 0; i < n; ++i)
        for (py::ssize_t j = 0; j < n; ++j) c(i, j) = fit.correlation(i, j);
    f["correlation"] = corr;
    py::list predictions;
    for (const plan::measurement& x : rows) {
        if (x.d.hw.name != fit.base.name) continue;  // other hardware than the fit's, as the tool leaves it out
        const double predicted = plan::predict(x, fit.fitted);
        py::dict r("id"_a = x.id, "metric"_a = std::string(plan::to_string(x.what)),
                   "fitted"_a = !x.check || o.include_check_rows, "measured"_a = x.value, "predicted"_a = predicted,
                   "error"_a = plan::relative_error(x, predicted));
        if (banded) {
            const plan::prediction_interval i = plan::predict_with_uncertainty(x, fit, band);
            r["low"] = i.low;
            r["high"] = i.high;
            r["covered"] = i.contains(x.value);
        }
        predictions.append(r);
    }
    f["predictions"] = predictions;
    return out;
}

}  // namespace
}  // namespace llmcost::python

PYBIND11_MODULE(_core, m) {
    using namespace llmcost;
    using namespace llmcost::python;
    m.doc() = "llmcost's C++ cost model of LLM inference (the extension behind `import llmcost`).";

    invalid_input_type = PyErr_NewExceptionWithDoc(
        "llmcost.InvalidInput",
        "A value that breaks a rule of the cost model (or an argument of the wrong type or an unknown name). "
        "Attributes: field, value, rule, id (the rule's stable id, listed in docs/troubleshooting.md), subject.",
        PyExc_ValueError, nullptr);
    load_error_type = PyErr_NewExceptionWithDoc(
        "llmcost.LoadError",
        "A config.json (file or dict) that cannot be read: path, line and column (where the text has them), "
        "field (the JSON key), value, rule.",
        PyExc_ValueError, nullptr);
    if (invalid_input_type == nullptr || load_error_type == nullptr) throw py::error_already_set();
    m.attr("InvalidInput") = py::handle(invalid_input_type);
    m.attr("LoadError") = py::handle(load_error_type);
    py::register_exception_translator(&translate);

    // ---- descriptors
    py::class_<model> model_class(m, "Model",
        "A model descriptor (frozen): the catalog's (`llmcost.models()`, `Model.named`), a Hugging Face "
        "config.json (`Model.from_hf_config`), or your own: `Model(name=…, layers=…, …)` and `replace(…)`, "
        "checked by the library's `model::validate`.");
    bind_fields(model_class, model_fields(), "Model");
    model_class.def_static("named", [](py::handle name) { return named<model>(name, "model"); }, "name"_a,
                           "The catalog model a name picks, loosely (`llama-3.1-70b`); an unknown name raises "
                           "InvalidInput with the closest names.");
    model_class.def_static(
        "from_hf_config",
        [](py::handle source, py::handle name) {
            std::optional<std::string> override_name;
            if (!name.is_none()) override_name = str_arg(name, "name");
            const auto as_view = override_name ? std::optional<std::string_view>(*override_name) : std::nullopt;
            if (py::isinstance<py::dict>(source)) {
                const std::string json_text = py::module_::import("json").attr("dumps")(source).cast<std::string>();
                return io::parse_hf_config(json_text, "<dict>", as_view ? as_view : std::optional<std::string_view>("<dict>"));
            }
            if (PyUnicode_Check(source.ptr()) || py::hasattr(source, "__fspath__")) {
                const std::string path = py::module_::import("os").attr("fspath")(source).cast<std::string>();
                return io::load_hf_config(path, as_view);
            }
            refuse("path_or_dict", source, "must be a path (str, os.PathLike) or a dict, got " + type_name(source),
                   "llmcost.argument.type");
        },
        "path_or_dict"_a, "name"_a = py::none(),
        "A model from a Hugging Face config.json: a path (the file, or the folder that holds it) or the parsed dict. "
        "A malformed one raises LoadError naming the file, line:column, key, value and rule.");

    py::class_<hardware> hardware_class(m, "Hardware",
        "A GPU descriptor (frozen): the catalog's (`llmcost.hardware()`, `Hardware.named`) or yours via `replace(…)`.");
    bind_fields(hardware_class, hardware_fields(), "Hardware");
    hardware_class.def_static("named", [](py::handle name) { return named<hardware>(name, "hardware"); }, "name"_a,
                              "The catalog GPU a name picks, loosely (`h100`, `H100 SXM5`); an unknown name raises "
                              "InvalidInput with the closest names.");

    // ---- catalogs
    m.def("models", [] { return std::vector<model>(catalog::all_models.begin(), catalog::all_models.end()); },
          "The catalog's models (sources in tables/models.csv).");
    m.def("hardware", [] { return std::vector<hardware>(catalog::all_hardware.begin(), catalog::all_hardware.end()); },
          "The catalog's GPUs (sources in tables/hardware.csv).");
    m.def("formats",
          [] {
              py::list out;
              for (const number_format& f : formats::all)
                  out.append(py::dict("name"_a = std::string(f.name), "bits_per_element"_a = f.bits_per_element(),
                                      "compute"_a = std::string(to_string(f.compute))));
              return out;
          },
          "The number formats `weights=` and `kv=` take, with their bits per element (scales included).");

    // ---- estimate
    py::class_<estimate_result> est(m, "Estimate",
        "One deployment serving one kind of request: the fields of `llmcost estimate --format json` (SI, the "
        "unit in the name); usd_* are None when the GPU has no price.");
#define LLMCOST_PROP(f) est.def_readonly(#f, &estimate_result::f);
    LLMCOST_ESTIMATE_FIELDS(LLMCOST_PROP)
#undef LLMCOST_PROP
    est.def("to_dict", &to_dict, "The fields as a dict, in the order of the tool's JSON.");
    est.def("__repr__", [](const estimate_result& r) {
        return "Estimate(" + std::string(py::repr(to_dict(r))) + ")";
    });

    const parallel_layout layout{};
    const estimate_options opts{};
    set_up_estimate_parameters();
    estimate_method.ml_doc = estimate_doc().c_str();
    m.attr("estimate") = py::reinterpret_steal<py::object>(PyCFunction_NewEx(&estimate_method, nullptr, m.attr("__name__").ptr()));

    py::class_<result>(m, "Result", "A command's figures: attributes, `to_dict()`, the `llmcost` tool's JSON names.")
        .def_readonly("kind", &result::kind)
        .def("to_dict", [](const result& r) { return py::dict(r.fields); })
        .def("keys", [](const result& r) { return r.fields.attr("keys")(); })
        .def("__getitem__", [](const result& r, const std::string& k) {
            if (!r.fields.contains(k)) throw py::key_error(k);
            return py::object(r.fields[k.c_str()]);
        })
        .def("__getattr__", [](const result& r, const std::string& k) {
            if (!r.fields.contains(k)) throw py::attribute_error("llmcost." + r.kind + " has no figure '" + k + "'");
            return py::object(r.fields[k.c_str()]);
        })
        .def("__dir__", [](const result& r) { return py::list(r.fields.attr("keys")()); })
        .def("__repr__", [](const result& r) { return r.kind + "(" + std::string(py::repr(r.fields)) + ")"; });

    m.def("kv", &python::kv, "model"_a, "hardware"_a, py::kw_only(), "context"_a, "batch"_a, "tp"_a = layout.tp,
          "pp"_a = layout.pp, "ep"_a = layout.ep, "dp"_a = py::none(), "gpus"_a = py::none(), "weights"_a = py::none(),
          "kv"_a = py::none(), "ignore_max_position"_a = false, "engine"_a = py::none(),
          "kv_memory_fraction"_a = py::none(), "excluded_modules"_a = py::none(), "kept_format"_a = py::none(),
          "eager_prompt"_a = py::none(), "kv_block_tokens"_a = py::none(), "host_loop"_a = py::none(), "a2a_dispatch_cap"_a = py::none(),
          "KV footprint of `batch` sequences of `context` tokens, and where it spills (HBM → DRAM → NVMe): "
          "`llmcost kv`. engine='trtllm', 'vllm' or 'sglang': the KV pool by that engine's rule for the GPU's "
          "architecture; None: the reference engine's. kv_memory_fraction=f: your launch's KV memory fraction, "
          "the f of that rule (see estimate), as `llmcost kv --kv-memory-fraction`; None: the engine's own. "
          "excluded_modules= and kept_format= as estimate takes them (their bytes beside the weights, the KV pool "
          "smaller by the engine's rule), as `llmcost kv --excluded-modules … --kept-format …`. eager_prompt= other "
          "than None is refused (InvalidInput, as `llmcost kv --eager-prompt`): kv prices memory, not a step. kv_block_tokens=B "
          "as estimate takes it (the paged KV block each sequence holds whole), as `llmcost kv --kv-block-tokens`. "
          "host_loop= other than None is refused (InvalidInput, as `llmcost kv --host-loop v0`): kv prices memory, not "
          "a scheduler pass's host time. a2a_dispatch_cap= other than None is refused likewise (as `llmcost kv "
          "--a2a-dispatch-cap`): the padded expert runner's time is a step's.");
    m.def("simulate", &python::simulate, "model"_a, "hardware"_a, py::kw_only(), "rate"_a = py::none(),
          "concurrency"_a = py::none(), "arrivals"_a = "poisson", "cv"_a = 1.0, "input_dist"_a = "1000",
          "output_dist"_a = "200", "trace"_a = py::none(), "requests"_a = 1000, "seed"_a = 1, "max_batch"_a = 0.0,
          "max_tokens"_a = 0.0, "prefill_chunk"_a = 0.0, "optimistic"_a = false, "ttft"_a = py::none(),
          "tpot"_a = py::none(), "tp"_a = layout.tp, "pp"_a = layout.pp, "ep"_a = layout.ep, "dp"_a = py::none(),
          "gpus"_a = py::none(), "weights"_a = py::none(), "kv"_a = py::none(), "dataset"_a = py::none(),
          "preemption"_a = "recompute", "prefix_hit_rate"_a = 0.0, "prefill_servers"_a = 0, "engine"_a = py::none(),
          "kv_memory_fraction"_a = py::none(), "excluded_modules"_a = py::none(), "kept_format"_a = py::none(),
          "eager_prompt"_a = py::none(), "gemm_table"_a = py::none(), "clock_MHz"_a = py::none(),
          "quick_reduce"_a = py::none(), "ignore_max_position"_a = false, "kv_block_tokens"_a = py::none(),
          "host_loop"_a = py::none(), "a2a_dispatch_cap"_a = py::none(),
          "Simulate the engine request by request (continuous batching, every step priced by the library's "
          "step formula): TTFT, TPOT, ITL, E2E and queueing percentiles, throughput, goodput: `llmcost simulate`. "
          "engine='trtllm', 'vllm' or 'sglang' prices every step with that engine's profile for the GPU's "
          "architecture, its scheduler defaults filling the limits not given; None: the reference engine. "
          "optimistic=True admits on the KV in use (preempt and recompute) instead of a whole-sequence reserve; "
          "engine='vllm' and 'sglang' admit so whatever it says. "
          "preemption='recompute' (drop the KV, recompute the prompt later) or 'swap' (copy it to host memory); "
          "'swap' is refused on an engine that has none (vLLM V1 recomputes; colocated SGLang retracts; only "
          "SGLang's disaggregated decode servers, prefill_servers > 0, offload), as `llmcost simulate --preemption`. "
          "kv_memory_fraction=f: your launch's KV memory fraction, sized by the engine's own KV pool rule, as "
          "`llmcost simulate --kv-memory-fraction` (see estimate); None: the engine's own. excluded_modules=, "
          "kept_format= and eager_prompt= as estimate takes them (every step priced with them), as `llmcost simulate "
          "--excluded-modules … --kept-format … --eager-prompt …`. gemm_table=, clock_MHz= and quick_reduce= as estimate takes "
          "them, as `llmcost simulate --gemm-table … --clock … --quick-reduce …`. kv_block_tokens=B as estimate takes it, as "
          "`llmcost simulate --kv-block-tokens`. host_loop='v0' as estimate takes it (the host pass paid once a scheduler "
          "pass), as `llmcost simulate --host-loop v0`. a2a_dispatch_cap=C as estimate takes it, as `llmcost simulate "
          "--a2a-dispatch-cap`.");
    // The tool's defaults (`llmcost spec` with no --input, --output, --batch, --acceptance, --draft-tokens, --drafter)
    m.def("spec", &python::spec, "model"_a, "hardware"_a, py::kw_only(), "input"_a = speculation_defaults::input,
          "output"_a = speculation_defaults::output, "batch"_a = speculation_defaults::batch,
          "acceptance"_a = speculation_defaults::acceptance, "draft_tokens"_a = speculation_defaults::draft_tokens,
          "drafter"_a = std::string(speculation_defaults::drafter), "target"_a = py::none(), "tp"_a = layout.tp,
          "pp"_a = layout.pp, "ep"_a = layout.ep, "dp"_a = py::none(), "gpus"_a = py::none(), "weights"_a = py::none(),
          "kv"_a = py::none(), "ignore_max_position"_a = false, "engine"_a = py::none(),
          "kv_memory_fraction"_a = py::none(), "excluded_modules"_a = py::none(), "kept_format"_a = py::none(),
          "eager_prompt"_a = py::none(), "gemm_table"_a = py::none(), "clock_MHz"_a = py::none(),
          "quick_reduce"_a = py::none(), "kv_block_tokens"_a = py::none(), "host_loop"_a = py::none(), "a2a_dispatch_cap"_a = py::none(),
          "Speculative decoding with `drafter` ('eagle', 'mtp', or a catalog model): tokens per pass, speedup, "
          "and the least acceptance that reaches `target` tokens/s per user: `llmcost spec`. engine= and "
          "kv_memory_fraction= as estimate takes them (a draft model runs on the same engine), as `llmcost spec "
          "--engine … --kv-memory-fraction …`. excluded_modules= and kept_format= as estimate takes them, the target's "
          "checkpoint only (a draft model keeps none out of weights=); eager_prompt= as estimate takes it, about prompt "
          "steps only: spec prices none (the verification pass is replayed from the engine's CUDA graphs as a decode "
          "step is, docs/speculative-verify.md), so it moves no figure; as `llmcost spec --excluded-modules … "
          "--kept-format … --eager-prompt …`. gemm_table=, clock_MHz= and quick_reduce= as estimate takes them, the GEMM "
          "table the target's only (a draft model's projections are priced by the size curve), as `llmcost spec "
          "--gemm-table … --clock … --quick-reduce …`. kv_block_tokens=B as estimate takes it (the draft model's engine "
          "too), as `llmcost spec --kv-block-tokens`. host_loop='v0' as estimate takes it (the draft model's engine too), "
          "as `llmcost spec --host-loop v0`. a2a_dispatch_cap=C as estimate takes it (the draft model's engine too), "
          "as `llmcost spec --a2a-dispatch-cap`.");
    m.def("disagg", &python::disagg, "model"_a, "hardware"_a, py::kw_only(), "input"_a, "output"_a, "ttft"_a, "tpot"_a,
          "every_token"_a = false, "path"_a = "scale-out", "chunk"_a = opts.limits.prefill_chunk.value(),
          "decode_hardware"_a = py::none(), "decode_tp"_a = py::none(), "tp"_a = layout.tp, "pp"_a = layout.pp,
          "ep"_a = layout.ep, "dp"_a = py::none(), "gpus"_a = py::none(), "weights"_a = py::none(), "kv"_a = py::none(),
          "ignore_max_position"_a = false, "engine"_a = py::none(), "kv_memory_fraction"_a = py::none(),
          "prefix_hit"_a = 0.0, "acceptance"_a = py::none(), "draft_tokens"_a = py::none(), "drafter"_a = "eagle",
          "excluded_modules"_a = py::none(), "kept_format"_a = py::none(), "eager_prompt"_a = py::none(),
          "gemm_table"_a = py::none(), "clock_MHz"_a = py::none(), "quick_reduce"_a = py::none(),
          "kv_block_tokens"_a = py::none(), "host_loop"_a = py::none(), "a2a_dispatch_cap"_a = py::none(),
          "Colocated against disaggregated serving under TTFT/TPOT targets (s): KV transfer, prefill stall, P:D "
          "ratio and goodput: `llmcost disagg`. engine= and kv_memory_fraction= as estimate takes them, for both "
          "pools (the decode pool on its own GPU's profile), as `llmcost disagg --engine … --kv-memory-fraction …`. "
          "prefix_hit: share of each prompt found cached, [0, 1): only the rest is prefilled (the whole prompt's KV "
          "is still sent), as `--prefix-hit`. Speculation while draft_tokens is given (acceptance required; "
          "drafter 'eagle', 'mtp', or a catalog model as a draft model on each pool's layout): every colocated "
          "step and every decode-pool step speculates, as `llmcost disagg --spec --acceptance … --draft-tokens … "
          "--drafter …`. excluded_modules=, kept_format= and eager_prompt= as estimate takes them, for both pools, as "
          "`llmcost disagg --excluded-modules … --kept-format … --eager-prompt …`. gemm_table=, clock_MHz= and quick_reduce= "
          "as estimate takes them, for both pools (a GEMM table must fit each pool's GPU and TP degree), as `llmcost "
          "disagg --gemm-table … --clock … --quick-reduce …`. kv_block_tokens=B as estimate takes it, for both pools, "
          "as `llmcost disagg --kv-block-tokens`. host_loop='v0' as estimate takes it, for both pools, as `llmcost "
          "disagg --host-loop v0`. a2a_dispatch_cap=C as estimate takes it, for both pools, as `llmcost disagg "
          "--a2a-dispatch-cap`.");

    // ---- sweeps
    py::class_<sweep_py, std::shared_ptr<sweep_py>> sw(m, "SweepResult",
        "Every grid point's figures as NumPy arrays (float64 SI; status uint8). Point order: GPU (slowest), "
        "formats, layout, mode, input, output, batch (fastest). ttft_s, tpot_s, output_tokens_per_s_per_gpu and "
        "status view the C++ result without a copy.");
    sw.def("__len__", [](const sweep_py& s) { return s.res.size(); })
        .def_property_readonly("ttft_s", [](py::object self) {
            const auto& s = self.cast<const sweep_py&>().res;
            return view(self, s.ttft_s.data(), s.size());
        })
        .def_property_readonly("tpot_s", [](py::object self) {
            const auto& s = self.cast<const sweep_py&>().res;
            return view(self, s.tpot_s.data(), s.size());
        })
        .def_property_readonly("output_tokens_per_s_per_gpu", [](py::object self) {
            const auto& s = self.cast<const sweep_py&>().res;
            return view(self, s.output_tokens_per_s_per_gpu.data(), s.size());
        })
        .def_property_readonly("status", [](py::object self) {
            const auto& s = self.cast<const sweep_py&>().res;
            return view(self, s.status_code.data(), s.size());
        })
        .def_property_readonly("tokens_per_s_per_user", [](const sweep_py& s) {
            return computed<double>(s.res.size(), [&](Eigen::Index i) { return s.res.tokens_per_s_per_user(i); });
        })
        .def_property_readonly("e2e_s", [](const sweep_py& s) {
            return computed<double>(s.res.size(), [&](Eigen::Index i) { return s.res.e2e(i); });
        })
        .def_property_readonly("requests_per_s_per_gpu", [](const sweep_py& s) {
            return computed<double>(s.res.size(), [&](Eigen::Index i) { return s.res.point(i).requests_per_second_per_gpu; });
        })
        .def_property_readonly("prefill_per_decode", [](const sweep_py& s) {
            return computed<double>(s.res.size(), [&](Eigen::Index i) { return s.res.point(i).prefill_per_decode; });
        })
        .def_property_readonly("fits", [](const sweep_py& s) {
            return computed<bool>(s.res.size(), [&](Eigen::Index i) { return s.res.fits(i); });
        })
        .def_property_readonly_static("status_names", [](py::handle) { return status_names(); },
                                      "status code → meaning (`plan::point_status`)")
        .def_property_readonly("gpus", [](const sweep_py& s) {
            std::vector<std::string> v;
            for (const hardware& h : s.res.grid.gpus) v.emplace_back(h.name);
            return v;
        })
        .def_property_readonly("formats", [](const sweep_py& s) {
            std::vector<std::pair<std::optional<std::string>, std::optional<std::string>>> v;
            for (const serving_formats& f : s.res.grid.formats)
                v.emplace_back(f.weights ? std::optional<std::string>(f.weights->name) : std::nullopt,
                               f.kv ? std::optional<std::string>(f.kv->name) : std::nullopt);
            return v;
        })
        .def("coordinates", [](const sweep_py& s) { return python::coordinates(s.res); },
             "Each point's grid coordinates as arrays: gpu and format (indices into .gpus and .formats), tp, pp, "
             "ep, dp, disaggregated, input_tokens, output_tokens, batch.")
        .def("to_pandas", [](py::object self) {
            const auto& s = self.cast<const sweep_py&>().res;
            py::module_ pd = py::module_::import("pandas");  // ImportError without pandas
            py::dict c = python::coordinates(s);
            py::dict cols;
            std::vector<std::string> names;
            for (const hardware& h : s.grid.gpus) names.emplace_back(h.name);
            cols["hardware"] = pd.attr("Categorical").attr("from_codes")(c["gpu"], names);
            std::vector<std::string> fmt;
            py::list excluded, kept;  // each format's kept modules (a list of words) and their format (None: none)
            for (const serving_formats& f : s.grid.formats) {
                fmt.push_back(std::string(f.weights ? f.weights->name : "model's") + "/" +
                              std::string(f.kv ? f.kv->name : "model's"));
                excluded.append(py::cast(excluded_module_words_of(f.kept.value_or(excluded_modules{}))));
                kept.append(f.kept ? py::object(py::str(std::string(f.kept->format.name))) : py::object(py::none()));
            }
            cols["formats"] = pd.attr("Categorical").attr("from_codes")(c["format"], fmt);
            py::module_ np = py::module_::import("numpy");
            auto per_point = [&](const py::list& per_format) {  // an object array indexed by each point's format
                py::object a = np.attr("empty")(py::len(per_format), "dtype"_a = "object");
                for (std::size_t i = 0; i < py::len(per_format); ++i) a.attr("__setitem__")(i, per_format[i]);
                return a.attr("take")(c["format"]);
            };
            cols["excluded_modules"] = per_point(excluded);
            cols["kept_format"] = per_point(kept);
            for (const char* k : {"tp", "pp", "ep", "dp", "disaggregated", "input_tokens", "output_tokens", "batch"})
                cols[k] = c[k];
            cols["status"] = pd.attr("Categorical").attr("from_codes")(self.attr("status"), status_names());
            for (const char* k : {"ttft_s", "tpot_s", "e2e_s", "output_tokens_per_s_per_gpu", "tokens_per_s_per_user",
                                  "requests_per_s_per_gpu", "prefill_per_decode"})
                cols[k] = self.attr(k);
            return pd.attr("DataFrame")(cols);
        }, "A pandas DataFrame, one row a point (needs pandas): formats 'weights/kv' by name, excluded_modules (the "
           "kept modules' words, a list; [] when none) and kept_format (their format; None when none) beside them.");

    m.def("sweep", &python::sweep, "model"_a, "hardware"_a, py::kw_only(), "input"_a, "output"_a, "batch"_a,
          "tp"_a = py::none(), "pp"_a = py::none(), "ep"_a = py::none(), "dp"_a = py::none(), "weights"_a = py::none(),
          "kv"_a = py::none(), "formats"_a = py::none(), "disaggregated"_a = false,
          "max_batch"_a = opts.limits.max_batch, "ignore_max_position"_a = false, "prefix_hit"_a = 0.0,
          "acceptance"_a = py::none(), "draft_tokens"_a = py::none(), "drafter"_a = "eagle", "engine"_a = py::none(),
          "kv_memory_fraction"_a = py::none(), "excluded_modules"_a = py::none(), "kept_format"_a = py::none(),
          "eager_prompt"_a = py::none(), "gemm_table"_a = py::none(), "clock_MHz"_a = py::none(),
          "quick_reduce"_a = py::none(), "kv_block_tokens"_a = py::none(), "host_loop"_a = py::none(), "a2a_dispatch_cap"_a = py::none(),
          "Price a grid in one pass (llmcost::plan::sweep): GPUs × formats (weights × kv, or the (weights, kv) "
          "pairs of `formats`) × layouts (tp × pp × ep × dp) × "
          "modes (disaggregated False/True) × input × output × batch, each a value or a list (batch may be a NumPy "
          "array). A point that breaks a rule is kept with its status, never raised. prefix_hit: share of every "
          "prompt in a prefix cache (S6; disaggregated: the prefill pool's); draft_tokens (with acceptance and "
          "drafter 'eagle' | 'mtp'): speculative decode steps (disaggregated: the decode pool's), as `llmcost "
          "frontier --spec`. engine='trtllm', 'vllm' or 'sglang' prices every GPU with that engine's "
          "profile (each GPU must run it); None: the reference engine. kv_memory_fraction=f: your launch's KV "
          "memory fraction, sized by each engine's own KV pool rule, as `llmcost frontier --kv-memory-fraction` "
          "(see estimate); None: the engine's own. excluded_modules=, kept_format= and eager_prompt= as estimate "
          "takes them, on every format and engine of the grid (frontier and plan likewise, as `llmcost frontier|plan "
          "--excluded-modules … --kept-format … --eager-prompt …`). gemm_table=, clock_MHz= and quick_reduce= as estimate "
          "takes them, on every deployment of the grid (frontier and plan likewise, as `llmcost frontier|plan "
          "--gemm-table … --clock … --quick-reduce …`): a deployment the table does not fit, or whose TP group QuickReduce "
          "does not run on, is kept with status invalid_deployment (frontier likewise; plan keeps its tp-1 layouts, "
          "priced without the switch); an engine without QuickReduce's curve is refused. "
          "kv_block_tokens=B: the paged KV block of every GPU's engine (the reference engine's where none is named), as "
          "estimate takes it (frontier and plan likewise, as `llmcost frontier|plan --kv-block-tokens`). host_loop='v0' as "
          "estimate takes it, on every GPU's engine (each must be vLLM with V0 pass figures; frontier and plan likewise; "
          "`llmcost frontier|plan` take no --host-loop). a2a_dispatch_cap=C: the all-to-all dispatch cap of every GPU's "
          "engine, as estimate takes it (frontier and plan likewise, as `llmcost frontier|plan --a2a-dispatch-cap`).");
    sw.def("frontier",
           [](const sweep_py& s, py::handle ttft, py::handle tpot, py::handle shape, py::handle disaggregated) {
               plan::frontier_options o{};
               if (!shape.is_none()) o.shape = static_cast<std::size_t>(count(shape, "shape"));
               if (!disaggregated.is_none()) o.disaggregated = flag(disaggregated, "disaggregated");
               const std::vector<Eigen::Index> front = plan::frontier(s.res, targets(ttft, tpot), o);
               py::array_t<std::int64_t> out(static_cast<py::ssize_t>(front.size()));
               std::copy(front.begin(), front.end(), out.mutable_data());
               return out;
           },
           py::kw_only(), "ttft"_a, "tpot"_a, "shape"_a = py::none(), "disaggregated"_a = py::none(),
           "Indices of the points on the Pareto frontier of tokens/s per GPU against tokens/s per user among those "
           "that fit and meet TTFT <= ttft and TPOT <= tpot (s), by tokens/s per user rising (llmcost::plan::frontier).");

    m.def("frontier", &python::frontier, "model"_a, "hardware"_a, py::kw_only(), "input"_a, "output"_a, "ttft"_a,
          "tpot"_a, "batch"_a = py::none(), "max_batch"_a = py::none(), "tp"_a = py::none(), "pp"_a = py::none(),
          "ep"_a = py::none(),
          "dp"_a = py::none(), "weights"_a = py::none(), "kv"_a = py::none(), "disaggregated"_a = false,
          "ignore_max_position"_a = false, "prefix_hit"_a = 0.0, "acceptance"_a = py::none(),
          "draft_tokens"_a = py::none(), "drafter"_a = "eagle", "engine"_a = py::none(),
          "kv_memory_fraction"_a = py::none(), "excluded_modules"_a = py::none(), "kept_format"_a = py::none(),
          "eager_prompt"_a = py::none(), "gemm_table"_a = py::none(), "clock_MHz"_a = py::none(),
          "quick_reduce"_a = py::none(), "kv_block_tokens"_a = py::none(), "host_loop"_a = py::none(), "a2a_dispatch_cap"_a = py::none(),
          "The configurations worth running for one request shape (prefix_hit, speculation with draft_tokens, "
          "acceptance and drafter, engine=, kv_memory_fraction=, kv_block_tokens=, host_loop=, a2a_dispatch_cap=, gemm_table=, clock_MHz= and quick_reduce=, as `sweep` "
          "takes them; nothing priceable at all, every layout breaking a rule: the library's refusal): a sweep over GPUs, "
          "formats, layouts and "
          "batches (batch=None: the library's batch ladder, up to max_batch) reduced to its frontier under the TTFT/TPOT targets, "
          "as `llmcost frontier` lists it (each figure a list, fastest per user last).");
    const plan::fleet_options fleet{};
    m.def("plan", &python::fleet_plan, "model"_a, "hardware"_a, py::kw_only(), "rate"_a, "mix"_a, "ttft"_a, "tpot"_a,
          "weights"_a = py::none(), "kv"_a = py::none(), "max_gpus"_a = fleet.max_gpus,
          "max_instance_gpus"_a = fleet.max_instance_gpus, "usd_per_gpu_hour"_a = py::none(), "prices"_a = py::none(),
          "utilisation"_a = fleet.utilisation, "colocated_only"_a = false, "ignore_max_position"_a = false,
          "prefix_hit"_a = 0.0, "acceptance"_a = py::none(), "draft_tokens"_a = py::none(), "drafter"_a = "eagle",
          "engine"_a = py::none(), "kv_memory_fraction"_a = py::none(), "excluded_modules"_a = py::none(),
          "kept_format"_a = py::none(), "eager_prompt"_a = py::none(), "gemm_table"_a = py::none(),
          "clock_MHz"_a = py::none(), "quick_reduce"_a = py::none(), "kv_block_tokens"_a = py::none(),
          "host_loop"_a = py::none(), "a2a_dispatch_cap"_a = py::none(),
          "The cheapest fleet for `rate` requests/s of the `mix` [(input, output, share), …] (prefix_hit, "
          "speculation with draft_tokens, acceptance and drafter, engine=, kv_memory_fraction=, kv_block_tokens=, host_loop=, a2a_dispatch_cap=, gemm_table=, clock_MHz= "
          "and quick_reduce=, as `sweep` takes them: every GPU type named must run the engine) under the TTFT/TPOT "
          "targets, among the GPU types `hardware`, formats, layouts and serving modes (llmcost::plan::cheapest_fleet, "
          "as `llmcost plan`): best, options (one per GPU type and mode, cheapest first), skipped, points. Under "
          "quick_reduce='int4' the tp-1 layouts (one GPU, attention-DP ranks) are kept, priced without the switch: "
          "llmcost prices no TP all-reduce there (`llmcost plan` says so in a note).");
    m.def("calibrate", &python::calibrate, "measurements"_a, py::kw_only(), "free"_a = py::none(),
          "include_check_rows"_a = false, "coverage"_a = py::none(),
          "Fit efficiency parameters (`free`, names as `llmcost calibrate --free`; None: the library's default set) "
          "to a measurements CSV (tables/measurements.csv's format): parameters with standard errors, the "
          "correlation matrix, each row's prediction (and its interval at `coverage`).");
}
