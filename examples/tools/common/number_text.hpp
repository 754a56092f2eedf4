#pragma once
/// \file
/// Numbers as text for the generated tables and reports (llmcost-tables, llmcost-validation).
/// Their output must be byte-identical under every compiler, build type and locale, so numbers go
/// through printf's correctly rounded %e and %f, never through iostream.

#include <algorithm>
#include <cstdio>
#include <string>

namespace llmcost::tools {

/// Commas between groups of three digits: "131072" → "131,072".
inline std::string grouped(const std::string& digits) {
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
        out += digits[i];
    }
    return out;
}

/// v to `digits` significant digits in plain notation (no exponent, no trailing zeros); `commas`
/// groups the integer part: sig(32330.4, 4) = "32,330", sig(0.0012345, 3) = "0.00123".
inline std::string sig(double v, int digits, bool commas = true) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v);  // "-3.233e+04"
    std::string s = buf;
    const std::string sign = s[0] == '-' ? "-" : "";
    if (!sign.empty()) s.erase(0, 1);
    const std::size_t e = s.find('e');
    const int exp = std::stoi(s.substr(e + 1));
    std::string mantissa = s.substr(0, 1) + (e > 1 ? s.substr(2, e - 2) : "");  // the digits, point removed
    std::string whole, fraction;
    if (exp >= 0) {
        const auto n = static_cast<std::size_t>(exp + 1);
        mantissa.resize(std::max(n, mantissa.size()), '0');
        whole = mantissa.substr(0, n);
        fraction = mantissa.substr(n);
    } else {
        whole = "0";
        fraction = std::string(static_cast<std::size_t>(-exp - 1), '0') + mantissa;
    }
    while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
    if (commas) whole = grouped(whole);
    return sign + whole + (fraction.empty() ? "" : "." + fraction);
}

/// v with a fixed number of decimals: fixed(2.345, 1) = "2.3".
inline std::string fixed(double v, int decimals) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

}  // namespace llmcost::tools
