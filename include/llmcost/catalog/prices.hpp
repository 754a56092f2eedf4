#pragma once
/// \file
/// Public market prices of a GPU-hour, per catalog GPU: on demand and committed (a 1-3 year
/// reservation), each with who listed it and when. Each entry is one row of
/// `tables/gpu_prices.csv`; a test loads the CSV and checks both agree field for field. A GPU with
/// no entry (or no committed figure) has no public price found: pricing falls back to the owner's
/// capex + power (serving/economics/gpu_price.hpp), and says so. Prices move: the dates are the
/// point of printing them.
///
/// No dated public on-demand listing was found (searched 2026-12-01, again the same day with
/// provider pricing pages, their dated transcriptions in public repositories, price trackers,
/// dated articles and Chinese rental markets) for six catalog GPUs, so they price at capex + power,
/// and every figure says so ("no on-demand market price listed for <GPU>", in text and in JSON's
/// `usd_basis`):
///   - H800 and H20: sold in China only; no Western cloud lists them, and the Chinese listings
///     found (per card-hour, in CNY) carry no date.
///   - GB300: rack-scale; CoreWeave's pricing page lists GB300 NVL72 as "Contact sales"
///     (transcribed 2026-09-20 in api-evangelist/coreweave plans/coreweave-plans-pricing.yml).
///   - Rubin (VR200 NVL144): not yet rentable anywhere.
///   - MI355X: rented by neoclouds and OCI (TensorWave, Crusoe, Oracle), at no price a
///     dated page gives (Hot Aisle's own site source lists MI300X prices only).
///   - A100 PCIe 40GB: no current listing of the 40 GB PCIe card; the Lambda "A100 40GB" figures are
///     the SXM4 part.
/// Two found on 2026-12-01, each in a dated transcription of the provider's own pricing page, with
/// a second copy that agrees: GH200 at Lambda $2.29 (api-evangelist/lambda-labs
/// @1929382e7f9b4777d980aec12b6fc9e04e6718cb, read 2026-09-20; tgarg01/silybench-data
/// derived/csv/gpu_prices.csv @045df3bf56b8d62c58f108fc43cb397306b83331, checked 2026-09-25) and
/// H100 NVL at RunPod Secure Cloud $3.19 (datareceipts/data-receipts vendors.json, read 2026-11-09;
/// the same silybench-data file, 2026-09-25; RunPod Community Cloud lists it at $2.59).
/// Add a row here and in the CSV when a dated source appears; never a guessed figure.

#include <llmcost/catalog/hardware.hpp>
#include <llmcost/descriptors/economics.hpp>

#include <array>
#include <string_view>

namespace llmcost::catalog {

// clang-format off
inline constexpr std::array gpu_market_prices{
    gpu_market_price{h100_sxm5.name, {dollars_per_hour(2.99), "Lambda on-demand H100 SXM, quoted in cliffcenter.com/research/amd-inference-economics", "2026-05-18"},
                     {dollars_per_hour(2.35), "SemiAnalysis 1-year reserved H100 (neocloud and tier-2), quoted in techreaderdaily.com 'H100 Reserved Capacity Hits $2.35/Hour Floor in 2026'", "2026-03"}, "1 year"},
    gpu_market_price{h200_sxm.name, {dollars_per_hour(3.5), "Nebius AI Cloud 1gpu-16vcpu-200gb preset, unified hourly price (docs.nebius.com/signup-billing/billing-changes-oct-2025)", "2025-10-22"},
                     {}, ""},
    gpu_market_price{b200_hgx.name, {dollars_per_hour(6.03), "Spheron on-demand B200 SXM (spheron.network/blog/nvidia-h200-vs-b200-vs-gb200)", "2026-03-17"},
                     {dollars_per_hour(2.65), "lowest reserved B200 rate of the providers surveyed in inworld.ai/resources/nvidia-b200-gpu-cloud", "2026-04-13"}, "reserved, term not stated"},
    gpu_market_price{gb200_nvl72.name, {dollars_per_hour(4.54), "Spheron on-demand GB200 Superchip $9.08/h for its 2 B200 GPUs (spheron.network/blog/nvidia-h200-vs-b200-vs-gb200)", "2026-03-17"},
                     {}, ""},
    gpu_market_price{b300_hgx.name, {dollars_per_hour(5), "Ornn GPU rental benchmark, low end of the neocloud on-demand range $5.00-7.25 (ornnai.com/research/nvidia-b200-vs-b300-why-use-one-instead-of-the-other)", "2026"},
                     {}, ""},
    gpu_market_price{mi300x.name, {dollars_per_hour(1.99), "median on-demand MI300X of the listed providers (cliffcenter.com/research/amd-inference-economics)", "2026-05-18"},
                     {}, ""},
    gpu_market_price{mi325x.name, {dollars_per_hour(1.95), "TensorWave on-demand MI325X, quoted in cliffcenter.com/research/amd-inference-economics", "2026-05-18"},
                     {}, ""},
    gpu_market_price{a100_sxm_80gb.name, {dollars_per_hour(2.4984), "Modal A100 80GB, $0.000694/s (techbytes.app serverless GPU pricing matrix)", "2026-05-07"},
                     {}, ""},
    gpu_market_price{a100_sxm_40gb.name, {dollars_per_hour(1.48), "Lambda 1x A100 40GB (techbytes.app serverless GPU pricing matrix)", "2026-05-07"},
                     {}, ""},
    gpu_market_price{a100_pcie_80gb.name, {dollars_per_hour(2.1), "RunPod on-demand A100 PCIe 80GB (deploybase.ai/articles/runpod-gpu-pricing)", "2026-03-10"},
                     {}, ""},
    gpu_market_price{h100_pcie.name, {dollars_per_hour(2.86), "Lambda 1x H100 PCIe (techbytes.app serverless GPU pricing matrix)", "2026-05-07"},
                     {}, ""},
    gpu_market_price{l40s.name, {dollars_per_hour(1.9512), "Modal L40S (techbytes.app serverless GPU pricing matrix)", "2026-05-07"},
                     {}, ""},
    gpu_market_price{l4.name, {dollars_per_hour(0.7992), "Modal L4 (techbytes.app serverless GPU pricing matrix)", "2026-05-07"},
                     {}, ""},
    gpu_market_price{gh200.name, {dollars_per_hour(2.29), "Lambda on-demand 1x GH200 (lambda.ai/instances, transcribed in github.com/api-evangelist/lambda-labs plans/lambda-labs-plans-pricing.yml)", "2026-09-20"},
                     {}, ""},
    gpu_market_price{h100_nvl.name, {dollars_per_hour(3.19), "RunPod Secure Cloud on-demand H100 NVL 94GB (runpod.io/pricing, transcribed in github.com/datareceipts/data-receipts 109-gpu-pricing/vendors.json)", "2026-11-09"},
                     {}, ""},
};
// clang-format on

/// The market prices listed for the GPU named `gpu` (exactly as the catalog names it), or nullptr.
[[nodiscard]] constexpr const gpu_market_price* market_price_of(std::string_view gpu) {
    return find_market_price(gpu_market_prices, gpu);
}

}  // namespace llmcost::catalog
