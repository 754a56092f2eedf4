#pragma once
/// \file
/// A small SVG 1.1 plot writer for llmcost's figures: a document of shapes and text, linear and
/// logarithmic axes with ticks and labels, and a plot panel that draws series, markers, labels,
/// reference lines and a legend in data coordinates. No dependencies beyond the standard library
/// and llmcost's text layer (`llmcost::text`, for every number it prints).
///
/// Output is deterministic: every coordinate is printed with two decimals (`text::fixed`, which
/// writes "-0.00" as "0.00"), elements appear in the order they were drawn, and clip-path ids are
/// numbered in order. The text uses "DejaVu Sans, sans-serif", which rsvg-convert (librsvg) renders.
///
/// **Example**
/// \code
/// svg::document doc(640, 400, "Example");
/// svg::plot p(doc, {.x = 70, .y = 40, .width = 540, .height = 300},
///             svg::axis::log(1.0, 1000.0, svg::decade_ticks(1.0, 1000.0, svg::si_label)),
///             svg::axis::linear(0.0, 10.0, svg::linear_ticks(0.0, 10.0, 2.0, 0)));
/// p.axes("x (unit)", "y (unit)", "A title");
/// p.line({{1.0, 1.0}, {1000.0, 9.0}}, {.stroke = "#1f77b4", .stroke_width = 2.0});
/// if (!doc.save("example.svg")) return 1;
/// \endcode

#include <llmcost/units/text.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace llmcost::figures::svg {

/// A point in data coordinates (in a plot) or in pixels (in a document).
struct point {
    double x = 0.0;
    double y = 0.0;
};

/// Fill and stroke of a shape. Colours are SVG colour strings ("#1f77b4", "none").
struct shape_style {
    std::string fill = "none";
    std::string stroke = "none";
    double stroke_width = 1.0;
    std::string dash{};   ///< stroke-dasharray, e.g. "6 3"; empty: solid
    double opacity = 1.0;
};

/// How a piece of text is set.
struct text_style {
    double size = 12.0;
    std::string anchor = "start";  ///< start, middle, end
    bool bold = false;
    bool italic = false;
    std::string color = "#222222";
    double rotate = 0.0;            ///< degrees, about the text's anchor point
};

/// The concatenation of `parts` (strings, string views, C strings), by appending: chains of
/// `"…" + std::string` trip g++ 12's -Wrestrict at -O2 (a false positive, GCC bug 105329), and
/// one append per part is cheaper anyway.
template <class... Parts>
[[nodiscard]] std::string cat(const Parts&... parts) {
    std::string out;
    (out.append(std::string_view(parts)), ...);
    return out;
}

namespace detail {

/// A coordinate: two decimals, never "-0.00".
[[nodiscard]] inline std::string fixed2(double v) { return llmcost::text::fixed(v, 2); }

/// Text as XML character data: &, <, > and " escaped.
[[nodiscard]] inline std::string escape(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (char c : s) {
        switch (c) {
            case '&': out += "&amp;"; break;
            case '<': out += "&lt;"; break;
            case '>': out += "&gt;"; break;
            case '"': out += "&quot;"; break;
            default: out += c;
        }
    }
    return out;
}

/// Advance of one ASCII character in DejaVu Sans, in ems (its hmtx table ÷ 2048, rounded).
[[nodiscard]] constexpr double advance_em(char c) {
    if (c >= '0' && c <= '9') return 0.636;
    switch (c) {
        case ' ': return 0.318;
        case 'i': case 'j': case 'l': return 0.278;
        case 'f': case 't': return 0.36;
        case 'r': return 0.411;
        case 's': return 0.521;
        case 'c': case 'z': return 0.55;
        case 'm': return 0.974;
        case 'w': return 0.818;
        case 'I': case 'J': return 0.295;
        case 'M': return 0.863;
        case 'W': return 0.989;
        case '.': case ',': case ':': case ';': return 0.318;
        case '(': case ')': case '[': case ']': return 0.39;
        case '-': return 0.361;
        case '/': return 0.337;
        case '%': return 0.95;
        case '=': case '+': case '<': case '>': return 0.838;
        default: break;
    }
    if (c >= 'a' && c <= 'z') return 0.61;
    if (c >= 'A' && c <= 'Z') return 0.7;
    return 0.6;
}

}  // namespace detail

/// Estimated width in pixels of `s` set at `size` px in DejaVu Sans (each multi-byte UTF-8
/// character counts as 0.8 em): good enough to size a legend box or keep labels apart.
[[nodiscard]] inline double text_width(std::string_view s, double size) {
    double em = 0.0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            em += detail::advance_em(static_cast<char>(c));
        } else if ((c & 0xC0) != 0x80) {  // the first byte of a multi-byte character
            em += 0.8;
        }
    }
    return em * size;
}

/// An SVG 1.1 document: a white page of `width` × `height` pixels that shapes and text are drawn on
/// in order.
class document {
public:
    document(double width, double height, std::string_view title) : width_(width), height_(height) {
        body_ += cat("<title>", detail::escape(title), "</title>\n");
        rect(0.0, 0.0, width, height, {.fill = "#ffffff"});
    }

    [[nodiscard]] double width() const { return width_; }
    [[nodiscard]] double height() const { return height_; }

    void rect(double x, double y, double w, double h, const shape_style& s, double corner = 0.0) {
        body_ += cat("<rect x=\"", detail::fixed2(x), "\" y=\"", detail::fixed2(y), "\" width=\"", detail::fixed2(w),
                     "\" height=\"", detail::fixed2(h), "\"");
        if (corner > 0.0) body_ += cat(" rx=\"", detail::fixed2(corner), "\"");
        body_ += cat(attributes(s), "/>\n");
    }

    void line(double x1, double y1, double x2, double y2, const shape_style& s) {
        body_ += cat("<line x1=\"", detail::fixed2(x1), "\" y1=\"", detail::fixed2(y1), "\" x2=\"", detail::fixed2(x2),
                     "\" y2=\"", detail::fixed2(y2), "\"", attributes(s), "/>\n");
    }

    void polyline(const std::vector<point>& pixels, const shape_style& s) {
        if (pixels.size() < 2) return;
        body_ += "<polyline points=\"";
        for (std::size_t i = 0; i < pixels.size(); ++i) {
            if (i > 0) body_ += ' ';
            body_ += cat(detail::fixed2(pixels[i].x), ",", detail::fixed2(pixels[i].y));
        }
        body_ += cat("\"", attributes(s), " stroke-linejoin=\"round\"/>\n");
    }

    void polygon(const std::vector<point>& pixels, const shape_style& s) {
        if (pixels.size() < 3) return;
        body_ += "<polygon points=\"";
        for (std::size_t i = 0; i < pixels.size(); ++i) {
            if (i > 0) body_ += ' ';
            body_ += cat(detail::fixed2(pixels[i].x), ",", detail::fixed2(pixels[i].y));
        }
        body_ += cat("\"", attributes(s), "/>\n");
    }

    void circle(double cx, double cy, double r, const shape_style& s) {
        body_ += cat("<circle cx=\"", detail::fixed2(cx), "\" cy=\"", detail::fixed2(cy), "\" r=\"", detail::fixed2(r),
                     "\"", attributes(s), "/>\n");
    }

    void text(double x, double y, std::string_view content, const text_style& t = {}) {
        record(x, y, content, t);
        body_ += cat("<text x=\"", detail::fixed2(x), "\" y=\"", detail::fixed2(y), "\" font-size=\"",
                     detail::fixed2(t.size), "\"");
        if (t.anchor != "start") body_ += cat(" text-anchor=\"", t.anchor, "\"");
        if (t.bold) body_ += " font-weight=\"bold\"";
        if (t.italic) body_ += " font-style=\"italic\"";
        body_ += cat(" fill=\"", t.color, "\"");
        if (t.rotate != 0.0)
            body_ += cat(" transform=\"rotate(", detail::fixed2(t.rotate), " ", detail::fixed2(x), " ", detail::fixed2(y),
                         ")\"");
        body_ += cat(">", detail::escape(content), "</text>\n");
    }

    /// Problems with the text laid out so far, one line each: text that leaves the page, and pieces
    /// of text whose boxes overlap (widths estimated by `text_width`). Empty: none found.
    [[nodiscard]] std::vector<std::string> layout_problems() const {
        std::vector<std::string> out;
        for (const placed_text& t : texts_)
            if (t.left < 0.0 || t.right > width_ || t.top < 0.0 || t.bottom > height_)
                out.push_back(cat("off the page: \"", t.content, "\""));
        for (std::size_t i = 0; i < texts_.size(); ++i)
            for (std::size_t j = i + 1; j < texts_.size(); ++j) {
                const placed_text& a = texts_[i];
                const placed_text& b = texts_[j];
                if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
                    out.push_back(cat("overlapping: \"", a.content, "\" and \"", b.content, "\""));
            }
        return out;
    }

    /// Opens a group clipped to a rectangle; close it with `end_group`.
    void begin_clip(double x, double y, double w, double h) {
        const std::string id = cat("clip", std::to_string(++clips_));
        body_ += cat("<clipPath id=\"", id, "\"><rect x=\"", detail::fixed2(x), "\" y=\"", detail::fixed2(y), "\" width=\"",
                     detail::fixed2(w), "\" height=\"", detail::fixed2(h), "\"/></clipPath>\n");
        body_ += cat("<g clip-path=\"url(#", id, ")\">\n");
    }
    void end_group() { body_ += "</g>\n"; }

    /// The whole document.
    [[nodiscard]] std::string str() const {
        std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"no\"?>\n";
        out += cat("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"", detail::fixed2(width_),
                   "\" height=\"", detail::fixed2(height_), "\" viewBox=\"0 0 ", detail::fixed2(width_), " ",
                   detail::fixed2(height_), "\" font-family=\"DejaVu Sans, sans-serif\">\n");
        out += body_;
        out += "</svg>\n";
        return out;
    }

    /// Writes the document to `path`; false when the file cannot be written.
    [[nodiscard]] bool save(const std::string& path) const {
        std::ofstream f(path, std::ios::binary);
        f << str();
        return static_cast<bool>(f);
    }

private:
    /// The box a piece of text covers: its estimated advance, 0.72 em above the baseline and 0.2 em
    /// below; turned by a rotation of ±90°.
    struct placed_text {
        std::string content;
        double left, right, top, bottom;
    };
    void record(double x, double y, std::string_view content, const text_style& t) {
        if (content.empty()) return;
        const double w = text_width(content, t.size);
        const double before = t.anchor == "middle" ? w / 2.0 : (t.anchor == "end" ? w : 0.0);
        const double along0 = -before, along1 = w - before;       // along the baseline
        const double across0 = -0.72 * t.size, across1 = 0.2 * t.size;  // across it (down is +)
        placed_text p{std::string(content), 0.0, 0.0, 0.0, 0.0};
        if (t.rotate == -90.0) {  // reads upwards: along the baseline is −y, "down" is +x
            p = {p.content, x + across0, x + across1, y - along1, y - along0};
        } else if (t.rotate == 90.0) {
            p = {p.content, x - across1, x - across0, y + along0, y + along1};
        } else {
            p = {p.content, x + along0, x + along1, y + across0, y + across1};
        }
        texts_.push_back(p);
    }

    [[nodiscard]] static std::string attributes(const shape_style& s) {
        std::string a = cat(" fill=\"", s.fill, "\"");
        if (s.stroke != "none") {
            a += cat(" stroke=\"", s.stroke, "\" stroke-width=\"", detail::fixed2(s.stroke_width), "\"");
            if (!s.dash.empty()) a += cat(" stroke-dasharray=\"", s.dash, "\"");
        }
        if (s.opacity != 1.0) a += cat(" opacity=\"", detail::fixed2(s.opacity), "\"");
        return a;
    }

    double width_;
    double height_;
    std::string body_;
    int clips_ = 0;
    std::vector<placed_text> texts_;
};

// ---- axes --------------------------------------------------------------------------------------

/// A tick: where it sits (data value) and what it says (empty: a minor tick without a label).
struct tick {
    double value = 0.0;
    std::string label{};
};

/// 10^k as an exact product (k small), so tick values do not depend on how pow() rounds.
[[nodiscard]] inline double power_of_ten(int k) {
    double r = 1.0;
    for (int i = 0; i < (k < 0 ? -k : k); ++i) r *= 10.0;
    return k < 0 ? 1.0 / r : r;
}

/// A decade value as a short SI label: 1, 10, 100, 1k, 10k, …, 1M, 1G, 1T, 1P; 0.1, 0.01 below 1.
[[nodiscard]] inline std::string si_label(double v) {
    static constexpr const char* prefixes[] = {"", "k", "M", "G", "T", "P", "E"};
    if (v < 1.0) return llmcost::text::number(v, 6);
    int p = 0;
    while (p < 6 && v >= 1000.0 * (1.0 - 1e-9)) {
        v /= 1000.0;
        ++p;
    }
    return llmcost::text::fixed(v, 0) + prefixes[p];
}

/// Ticks at every power of ten in [lo, hi], labelled by `label`, with unlabelled minor ticks at
/// 2…9 × each decade when `minor`.
template <class Label>
[[nodiscard]] std::vector<tick> decade_ticks(double lo, double hi, Label label, bool minor = true) {
    std::vector<tick> out;
    const int first = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
    const int last = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
    for (int k = first; k <= last; ++k) {
        const double decade = power_of_ten(k);
        if (decade >= lo * (1.0 - 1e-9) && decade <= hi * (1.0 + 1e-9)) out.push_back({decade, label(decade)});
        if (!minor) continue;
        for (int m = 2; m <= 9; ++m) {
            const double v = decade * m;
            if (v > lo && v < hi) out.push_back({v, ""});
        }
    }
    return out;
}

/// The tick step for about `target` ticks over [0, hi]: 1, 2 or 5 × 10^k.
[[nodiscard]] inline double nice_step(double hi, double target) {
    const double raw = hi / target;
    double decade = 1.0;
    while (decade * 10.0 <= raw) decade *= 10.0;
    while (decade > raw) decade /= 10.0;
    for (double m : {1.0, 2.0, 5.0, 10.0})
        if (decade * m >= raw) return decade * m;
    return decade * 10.0;
}

/// `v` rounded up to a whole number of `step`s (an axis end on a tick).
[[nodiscard]] inline double ceil_to(double v, double step) { return std::ceil(v / step) * step; }

/// Ticks at lo, lo + step, … ≤ hi, labelled with `decimals` decimals (computed as i · step, so they
/// do not accumulate rounding).
[[nodiscard]] inline std::vector<tick> linear_ticks(double lo, double hi, double step, int decimals,
                                                    bool thousands_separator = false) {
    std::vector<tick> out;
    const long long first = static_cast<long long>(std::ceil(lo / step - 1e-9));
    const long long last = static_cast<long long>(std::floor(hi / step + 1e-9));
    for (long long i = first; i <= last; ++i) {
        const double v = static_cast<double>(i) * step;
        out.push_back({v, thousands_separator ? llmcost::text::grouped(v, decimals) : llmcost::text::fixed(v, decimals)});
    }
    return out;
}

enum class scale { linear, log };

/// A data range on a linear or logarithmic scale, with its ticks, mapped onto a pixel range.
class axis {
public:
    [[nodiscard]] static axis linear(double lo, double hi, std::vector<tick> ticks) {
        return axis(scale::linear, lo, hi, std::move(ticks));
    }
    [[nodiscard]] static axis log(double lo, double hi, std::vector<tick> ticks) {
        return axis(scale::log, lo, hi, std::move(ticks));
    }

    [[nodiscard]] scale kind() const { return kind_; }
    [[nodiscard]] double lo() const { return lo_; }
    [[nodiscard]] double hi() const { return hi_; }
    [[nodiscard]] const std::vector<tick>& ticks() const { return ticks_; }

    /// Where `v` falls between lo (0) and hi (1); on a log axis, in log space.
    [[nodiscard]] double fraction(double v) const {
        if (kind_ == scale::log) return (std::log10(v) - std::log10(lo_)) / (std::log10(hi_) - std::log10(lo_));
        return (v - lo_) / (hi_ - lo_);
    }
    [[nodiscard]] bool contains(double v) const {
        return v >= lo_ * (1.0 - 1e-9) && v <= hi_ * (1.0 + 1e-9) && (kind_ == scale::linear || v > 0.0);
    }

private:
    axis(scale k, double lo, double hi, std::vector<tick> ticks) : kind_(k), lo_(lo), hi_(hi), ticks_(std::move(ticks)) {}
    scale kind_;
    double lo_;
    double hi_;
    std::vector<tick> ticks_;
};

// ---- a plot panel ------------------------------------------------------------------------------

/// A rectangle of the page, in pixels.
struct frame {
    double x = 0.0;
    double y = 0.0;
    double width = 0.0;
    double height = 0.0;
};

enum class marker_kind { circle, square, diamond, triangle };
enum class corner { top_left, top_right, bottom_left, bottom_right };

/// One row of a legend: a line sample (when `line.stroke` is set) and/or a marker, and a label.
struct legend_entry {
    std::string label;
    shape_style line{};
    bool has_marker = false;
    marker_kind marker = marker_kind::circle;
    shape_style marker_style{};
};

/// A panel with an x and a y axis on a frame of the page. Data drawn through it is placed by the
/// axes and clipped to the frame.
class plot {
public:
    plot(document& doc, frame f, axis x, axis y) : doc_(doc), f_(f), x_(std::move(x)), y_(std::move(y)) {}

    [[nodiscard]] double px(double x) const { return f_.x + x_.fraction(x) * f_.width; }
    [[nodiscard]] double py(double y) const { return f_.y + f_.height - y_.fraction(y) * f_.height; }
    [[nodiscard]] point to_pixels(point p) const { return {px(p.x), py(p.y)}; }
    [[nodiscard]] const frame& area() const { return f_; }
    [[nodiscard]] const axis& x_axis() const { return x_; }
    [[nodiscard]] const axis& y_axis() const { return y_; }

    /// Grid, frame, ticks with their labels, axis titles and the panel's title (empty: none).
    void axes(std::string_view x_title, std::string_view y_title, std::string_view title = {}) {
        const shape_style major_grid{.stroke = "#d9d9d9", .stroke_width = 0.8};
        const shape_style minor_grid{.stroke = "#efefef", .stroke_width = 0.6};
        const shape_style ink{.stroke = "#444444", .stroke_width = 1.0};
        const text_style tick_text{.size = 12.0, .anchor = "middle", .color = "#333333"};
        for (const tick& t : x_.ticks()) {
            if (!x_.contains(t.value)) continue;
            const double x = px(t.value);
            doc_.line(x, f_.y, x, f_.y + f_.height, t.label.empty() ? minor_grid : major_grid);
        }
        for (const tick& t : y_.ticks()) {
            if (!y_.contains(t.value)) continue;
            const double y = py(t.value);
            doc_.line(f_.x, y, f_.x + f_.width, y, t.label.empty() ? minor_grid : major_grid);
        }
        doc_.rect(f_.x, f_.y, f_.width, f_.height, {.stroke = "#444444", .stroke_width = 1.0});
        const double bottom = f_.y + f_.height;
        for (const tick& t : x_.ticks()) {
            if (!x_.contains(t.value)) continue;
            const double x = px(t.value);
            doc_.line(x, bottom, x, bottom + (t.label.empty() ? 3.0 : 6.0), ink);
            if (!t.label.empty()) doc_.text(x, bottom + 20.0, t.label, tick_text);
        }
        text_style y_tick_text = tick_text;
        y_tick_text.anchor = "end";
        for (const tick& t : y_.ticks()) {
            if (!y_.contains(t.value)) continue;
            const double y = py(t.value);
            doc_.line(f_.x - (t.label.empty() ? 3.0 : 6.0), y, f_.x, y, ink);
            if (!t.label.empty()) doc_.text(f_.x - 9.0, y + 4.0, t.label, y_tick_text);
        }
        if (!x_title.empty())
            doc_.text(f_.x + f_.width / 2.0, bottom + 42.0, x_title, {.size = 13.0, .anchor = "middle"});
        if (!y_title.empty()) {
            double widest = 0.0;
            for (const tick& t : y_.ticks())
                if (y_.contains(t.value)) widest = std::max(widest, text_width(t.label, 12.0));
            const double x = f_.x - 9.0 - widest - 12.0;
            doc_.text(x, f_.y + f_.height / 2.0, y_title, {.size = 13.0, .anchor = "middle", .rotate = -90.0});
        }
        if (!title.empty()) doc_.text(f_.x, f_.y - 10.0, title, {.size = 14.0, .bold = true});
    }

    /// A polyline through `data`, clipped to the frame; points off a log axis (≤ 0) are dropped.
    void line(const std::vector<point>& data, const shape_style& s) {
        std::vector<point> pixels;
        pixels.reserve(data.size());
        for (const point& p : data)
            if (drawable(p)) pixels.push_back(to_pixels(p));
        clipped([&] { doc_.polyline(pixels, s); });
    }

    /// A horizontal line across the frame at y = `y`.
    void hline(double y, const shape_style& s) {
        if (!y_.contains(y)) return;
        doc_.line(f_.x, py(y), f_.x + f_.width, py(y), s);
    }
    /// A vertical line across the frame at x = `x`.
    void vline(double x, const shape_style& s) {
        if (!x_.contains(x)) return;
        doc_.line(px(x), f_.y, px(x), f_.y + f_.height, s);
    }

    /// A marker centred on a data point, `size` pixels across.
    void marker(point p, marker_kind k, double size, const shape_style& s) {
        if (!drawable(p)) return;
        draw_marker(to_pixels(p), k, size, s);
    }

    /// Text placed at a data point, offset by (dx, dy) pixels.
    void label(point p, double dx, double dy, std::string_view content, const text_style& t = {}) {
        if (!drawable(p)) return;
        doc_.text(px(p.x) + dx, py(p.y) + dy, content, t);
    }

    /// A legend box in a corner of the frame, `inset` pixels from its edges.
    void legend(const std::vector<legend_entry>& entries, corner where, double inset = 10.0,
                std::string_view heading = {}) {
        const double size = 12.0, row = 19.0, sample = 28.0, pad = 9.0;
        double widest = heading.empty() ? 0.0 : text_width(heading, size);
        for (const legend_entry& e : entries) widest = std::max(widest, sample + 8.0 + text_width(e.label, size));
        const double w = widest + 2.0 * pad;
        const double h = static_cast<double>(entries.size() + (heading.empty() ? 0 : 1)) * row + 2.0 * pad - 4.0;
        const bool left = where == corner::top_left || where == corner::bottom_left;
        const bool top = where == corner::top_left || where == corner::top_right;
        const double x0 = left ? f_.x + inset : f_.x + f_.width - inset - w;
        const double y0 = top ? f_.y + inset : f_.y + f_.height - inset - h;
        doc_.rect(x0, y0, w, h, {.fill = "#ffffff", .stroke = "#bbbbbb", .stroke_width = 0.8}, 3.0);
        double y = y0 + pad + 8.0;
        if (!heading.empty()) {
            doc_.text(x0 + pad, y + 4.0, heading, {.size = size, .bold = true});
            y += row;
        }
        for (const legend_entry& e : entries) {
            const double xs = x0 + pad;
            if (e.line.stroke != "none") doc_.line(xs, y, xs + sample, y, e.line);
            if (e.has_marker) draw_marker({xs + sample / 2.0, y}, e.marker, 8.0, e.marker_style);
            doc_.text(xs + sample + 8.0, y + 4.0, e.label, {.size = size});
            y += row;
        }
    }

    /// Draws whatever `draw` adds to the document clipped to the frame.
    template <class F>
    void clipped(F draw) {
        doc_.begin_clip(f_.x, f_.y, f_.width, f_.height);
        draw();
        doc_.end_group();
    }

private:
    [[nodiscard]] bool drawable(point p) const {
        return std::isfinite(p.x) && std::isfinite(p.y) && (x_.kind() == scale::linear || p.x > 0.0) &&
               (y_.kind() == scale::linear || p.y > 0.0);
    }

    void draw_marker(point c, marker_kind k, double size, const shape_style& s) {
        const double r = size / 2.0;
        switch (k) {
            case marker_kind::circle: doc_.circle(c.x, c.y, r, s); break;
            case marker_kind::square: doc_.rect(c.x - r, c.y - r, size, size, s); break;
            case marker_kind::diamond:
                doc_.polygon({{c.x, c.y - r * 1.25}, {c.x + r * 1.25, c.y}, {c.x, c.y + r * 1.25}, {c.x - r * 1.25, c.y}}, s);
                break;
            case marker_kind::triangle:
                doc_.polygon({{c.x, c.y - r * 1.2}, {c.x + r * 1.1, c.y + r * 0.8}, {c.x - r * 1.1, c.y + r * 0.8}}, s);
                break;
        }
    }

    document& doc_;
    frame f_;
    axis x_;
    axis y_;
};

}  // namespace llmcost::figures::svg
