#pragma once
/// \file
/// A length distribution from its text form, as the tool's `--input-dist` / `--output-dist` and
/// the Python module take it: `fixed:L`, `uniform:LO:HI`, `lognormal:MEAN:SD[:MAX]` or a plain
/// number. Text parsing lives here, beside the other loaders, not in the descriptor
/// (descriptors/workload.hpp), so the formulas' umbrella does not compile a parser.
///
/// **Example**
/// \code
/// const workload::length_distribution in = io::parse_length("lognormal:1000:1500", "--input-dist");
/// \endcode

#include <llmcost/descriptors/validation.hpp>
#include <llmcost/descriptors/workload.hpp>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

namespace llmcost::io {

/// A length distribution from its text: `fixed:L`, `uniform:LO:HI`, `lognormal:MEAN:SD[:MAX]` or a
/// plain number L (fixed). `what` names the input in the error ("--input-dist"), which names the
/// text and the forms it takes.
[[nodiscard]] inline workload::length_distribution parse_length(std::string_view spec, std::string_view what) {
    std::vector<double> xs;
    std::string_view name = spec;
    if (const std::size_t colon = spec.find(':'); colon != std::string_view::npos) {
        name = spec.substr(0, colon);
        std::string_view rest = spec.substr(colon + 1);
        for (;;) {
            const std::size_t c = rest.find(':');
            const std::string part(rest.substr(0, c));
            char* end = nullptr;
            const double v = std::strtod(part.c_str(), &end);
            require(!part.empty() && end == part.c_str() + part.size(), std::string(what) + " '" + std::string(spec) + "'",
                    "number", 0.0, "'" + part + "' is not a number", "llmcost.workload.unknown_name");
            xs.push_back(v);
            if (c == std::string_view::npos) break;
            rest = rest.substr(c + 1);
        }
    } else {
        const std::string part(spec);
        char* end = nullptr;
        const double v = std::strtod(part.c_str(), &end);
        if (!part.empty() && end == part.c_str() + part.size()) {
            name = "fixed";
            xs.push_back(v);
        }
    }
    workload::length_distribution l{};
    if (name == "fixed" && xs.size() == 1) l = workload::fixed(tokens(xs[0]));
    else if (name == "uniform" && xs.size() == 2) l = workload::uniform(tokens(xs[0]), tokens(xs[1]));
    else if (name == "lognormal" && (xs.size() == 2 || xs.size() == 3))
        l = workload::lognormal(tokens(xs[0]), tokens(xs[1]), tokens(xs.size() == 3 ? xs[2] : 0.0));
    else
        require(false, std::string(what) + " '" + std::string(spec) + "'", "distribution",
                static_cast<double>(xs.size()),
                "unknown distribution or wrong count of numbers; use fixed:L, uniform:LO:HI or lognormal:MEAN:SD[:MAX]",
                "llmcost.workload.unknown_name");
    l.validate(what);
    return l;
}

}  // namespace llmcost::io
