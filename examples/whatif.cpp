// A first what-if: the seed dashboard's receipt (S27–S30) from typed quantities.
// Each line states its assumption; change one and rebuild to see what moves.
#include <llmcost/llmcost.hpp>

#include <cstdio>

int main() {
    using namespace llmcost;
    using namespace llmcost::literals;

    // Assumptions of the dashboard (S39).
    constexpr bytes_t weights_read_per_pass = 40_GB;  // 40B active parameters at 8 bits
    constexpr bytes_per_second_t hbm = 20_TBps;       // the latest GPU (S7)
    constexpr double batch = 32.0;                    // sequences sharing one pass (S28)
    constexpr watts_t gpu_power = 1.5_kW;
    constexpr double output_tokens = 500.0;
    constexpr double server_overhead = 1.3, cooling = 1.2;

    constexpr seconds_t pass = transfer_time(weights_read_per_pass, hbm);              // S27
    constexpr seconds_t per_token = pass / batch;                                       // S28
    constexpr joules_t decode_energy = energy_at(gpu_power, per_token) * output_tokens;  // S29
    constexpr joules_t at_the_wall = decode_energy * (server_overhead * cooling);       // S30
    static_assert(pass == 2_ms, "S27: 40 GB / 20 TB/s is 2 ms");

    const format_options wh{.digits = 3, .energy = energy_style::watt_hours};
    std::printf("S27  one decode pass   %s / %s = %s\n", format(weights_read_per_pass).c_str(),
                format(hbm).c_str(), format(pass).c_str());
    std::printf("S28  per token         %s / batch %g = %s\n", format(pass).c_str(), batch,
                format(per_token).c_str());
    std::printf("S29  decode energy     %s x %s x %g tokens = %s\n", format(per_token).c_str(),
                format(gpu_power).c_str(), output_tokens, format(decode_energy).c_str());
    std::printf("S30  at the wall       x %g server x %g cooling = %s (decode only)\n",
                server_overhead, cooling, format(at_the_wall, wh).c_str());
    return 0;
}
