"""Krai's Llama-3.1 rows: measure, run by run, how many Llama-2 tokens Krai reports per token the engine generated
(output_token_ratio rho), from the answers themselves (docs/krai-token-unit.md, section 5).

Every Krai Llama-3.1 run's compliance TEST06 accuracy log (the file tables/scripts/krai_token_unit.py checks) holds
100 answers as the Llama-2 token ids Krai's harness handed LoadGen (BOS first). For each answer this script:
  1. decodes the Llama-2 ids to text with Llama-2's SentencePiece vocabulary (pieces' U+2581 -> space, <0xNN> byte
     pieces -> that byte, BOS dropped, the leading space SentencePiece's dummy prefix adds dropped);
  2. re-encodes the text with Llama-3's tokenizer: its pre-tokenizer regex, then byte-level BPE merging the pair of
     lowest rank first (tiktoken's algorithm);
  3. counts the tokens the engine generated for it: the text's Llama-3 tokens plus the end-of-turn token
     <|eot_id|> the model sampled to stop (one decode step; vLLM 0.9.2 keeps a stop token in the request's output
     token ids: vllm/v1/core/sched/scheduler.py l.798-807 appends each sampled id, then check_stop,
     vllm/v1/core/sched/utils.py, ends the request on it without removing it). An answer whose Llama-3 count reaches
     MAX_NEW_TOKENS stopped on the length cap and gets no end-of-turn token.
Per run: rho = sum(Llama-2 ids - 1) / sum(Llama-3 tokens + end-of-turn), so that output_token_offset k = 1 (the
BOS) and O_eng = (O - 1) / rho is the run's mean engine answer, end-of-turn step included.

The prompt (input_tokens, the same on every row): Krai's engine gets the OpenOrca prompts in the Llama-3.1 chat
template, in Llama-3 tokens; no mean is published. The script counts each chat template's own tokens (MLPerf's Llama-2
reference template and Krai's Llama-3.1 one, with and without a system prompt) and converts the rest of MLPerf's mean
Llama-2 prompt, 222.3 tokens, at the text ratio measured on all runs' answers (the same data set's English):
input = T3 + (222.3 - T2) / rho_text. The share of prompts with a system prompt is not published: the midpoint of the
two cases is taken and the half-range stated in the note.

Vocabularies (pinned public files, read with git from the fetched mirrors):
  Llama-2: github.com/karpathy/llama2.c @350e04fe35433e6d2941dce5a1f53308f87058eb tokenizer.model (Meta's
           32,000-piece SentencePiece model, as llama2.c ships it);
  Llama-3: github.com/meta-llama/llama-models @a9c89c471f793423afd4cc3ca8671d6e56fe64cb models/llama3/tokenizer.model
           (128,000 base64 byte strings with their ranks) and the special tokens and pre-tokenizer regex of
           models/llama3/tokenizer.py (same commit).
Self-checks before any run is measured (refused, naming the check, if one fails): the vocabularies' sizes and known
ids; Llama-2 encodings from llama2.c's test.c (same commit: the Llama 2 repository's example prompts, BOS first);
Llama-3 encodings from llama-models' models/llama3/tests/api/test_tokenizer.py (same commit); and that every answer
decodes to valid UTF-8 and re-encodes with Llama-2 to the same ids (so the decoded text is the text Krai counted).

Run from the repository root: python3 tables/scripts/krai_token_ratio.py [--check]
(--check: measure and print, write nothing)."""
import argparse
import base64
import json
import os
import re
import struct
import sys

import regex

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from csv_rows import load, save  # noqa: E402
from krai_token_unit import (MEASUREMENTS, MIRROR, accuracy_log_path, answer_ids, git_show,  # noqa: E402
                             krai_runs, set_marked_notes, show)

LLAMA2_GIT = "/work/.mirror/karpathy+llama2.c/repo"
LLAMA2_COMMIT = "350e04fe35433e6d2941dce5a1f53308f87058eb"
LLAMA2_PATH = "tokenizer.model"
LLAMA3_GIT = "/work/.mirror/meta-llama+llama-models/repo"
LLAMA3_COMMIT = "a9c89c471f793423afd4cc3ca8671d6e56fe64cb"
LLAMA3_PATH = "models/llama3/tokenizer.model"
LLAMA3_CODE = "models/llama3/tokenizer.py"
MAX_NEW_TOKENS = 1024  # MLPerf llama2-70b's generation cap (mlcommons/inference language/llama2-70b, max_new_tokens);
# that Krai's harness keeps the reference's cap is INFERRED (12 of 1,900 answers stop at it, none beyond)
PROMPT_LLAMA2_MEAN = 222.3  # the reference set's mean Llama-2 prompt (openshift-psap/performance-dashboard @7100702 llama2-70b-99.csv)
# MLPerf's reference prompt (mlcommons/inference @b66003e language/llama2-70b/processorca.py l.36-37, l.59-69: the
# tokenizer's own BOS, the text, then id 29871 appended) and Krai's Llama-3.1 prompt (krai/axs2mlperf @5db3f2a
# convert_openorca/convert_openorca.py, llama3_1; the Llama-3.1 tokenizer adds <|begin_of_text|>).
LLAMA2_TEMPLATES = ("<s>[INST] <<SYS>>\n{}\n<</SYS>>\n\n{} [/INST]", "<s>[INST] {} [/INST]")
LLAMA3_TEMPLATES = ("<|start_header_id|>system<|end_header_id|>\n\n{}<|eot_id|>\n<|start_header_id|>user<|end_header_id|>"
                    "\n\n{}<|eot_id|><|start_header_id|>assistant<|end_header_id|>",
                    "<|start_header_id|>user<|end_header_id|>\n\n{}<|eot_id|><|start_header_id|>assistant<|end_header_id|>")
PROBES = (("You are a helpful assistant.", "What is two plus two?"),
          ("Think step by step and justify your answer.", "Translate to French: the cat sat on the mat."))
INPUT_MARKER = " Prompt tokens (tables/scripts/krai_token_ratio.py):"
INPUT_END = "[/krai_prompt_tokens]"
# The assumed-ratio prompt text as the NVIDIA rows and the MI300X rows (docs/amd-open-dense.md) wrote it.
OLD_INPUT = re.compile(r"no mean of that count is published: .*?\(docs/krai-open-dense\.md\);"
                       r"|input: 179 tokens, a RATIO ASSUMED .*?= 178\.9;")
MARKER = " Measured answer-token ratio (tables/scripts/krai_token_ratio.py):"
END = "[/krai_token_ratio]"


def blob(git_dir, commit, path):
    """A pinned vocabulary file's bytes (`git_show`); refused, naming it, where the mirror lacks it."""
    data, why = git_show(git_dir, commit, path)
    if data is None:
        sys.exit(f"{git_dir} @{commit}:{path}: not readable ({why}); fetch the mirror first")
    return data


# ---------------------------------------------------------------------------------------------------------- Llama-2
def protobuf_fields(data):
    """(field number, wire type, value) of one protobuf message: varints as ints, length-delimited as bytes,
    32-bit as bytes."""
    i = 0
    while i < len(data):
        key, i = varint(data, i)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, i = varint(data, i)
        elif wire == 2:
            n, i = varint(data, i)
            value, i = data[i:i + n], i + n
        elif wire == 5:
            value, i = data[i:i + 4], i + 4
        elif wire == 1:
            value, i = data[i:i + 8], i + 8
        else:
            sys.exit(f"protobuf: wire type {wire} at byte {i}; not a SentencePiece model")
        yield field, wire, value


def varint(data, i):
    shift = result = 0
    while True:
        b = data[i]
        i += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, i
        shift += 7


class Llama2:
    """SentencePiece BPE model (sentencepiece_model.proto: ModelProto.pieces = field 1; SentencePiece.piece = 1,
    score = 2 (float), type = 3 (1 normal, 2 unknown, 3 control, 6 byte))."""
    BYTE = 6
    CONTROL_TEXT = ("<s>", "</s>")

    def __init__(self, data):
        self.pieces, self.scores, self.types = [], [], []
        for field, wire, value in protobuf_fields(data):
            if field != 1 or wire != 2:
                continue
            piece, score, kind = None, 0.0, 1
            for f, w, v in protobuf_fields(value):
                if f == 1:
                    piece = v.decode("utf-8")
                elif f == 2:
                    score = struct.unpack("<f", v)[0]
                elif f == 3:
                    kind = v
            self.pieces.append(piece)
            self.scores.append(score)
            self.types.append(kind)
        self.index = {p: i for i, p in enumerate(self.pieces)}

    def decode(self, ids):
        """Text of ids after the BOS: byte pieces as bytes, U+2581 as a space, the dummy prefix's space dropped. An
        answer whose text holds "<s>" or "</s>" literally has those control ids inside it (Hugging Face's Llama-2
        tokenizer maps the names to them and gives the text after each its own dummy prefix): they decode to their
        names and the next run of pieces drops its prefix space too."""
        text, run = "", bytearray()
        for t in ids + [None]:
            if t is not None and self.types[t] == self.BYTE:
                run.append(int(self.pieces[t][3:5], 16))
            elif t is not None and self.types[t] == 1:
                run += self.pieces[t].replace("\u2581", " ").encode("utf-8")
            else:
                if t is not None and self.pieces[t] not in self.CONTROL_TEXT:
                    raise ValueError(f"id {t} ({self.pieces[t]!r}) is an unknown piece inside an answer")
                part = run.decode("utf-8")  # strict: an answer that is not valid UTF-8 is refused by the caller
                text += (part[1:] if part.startswith(" ") else part) + (self.pieces[t] if t is not None else "")
                run = bytearray()
        return text

    def encode(self, text):
        """The inverse of decode: "<s>" and "</s>" as their ids, each other run encoded by encode_run (no BOS)."""
        out = []
        for chunk in re.split("(</?s>)", text):
            out += [self.index[chunk]] if chunk in self.CONTROL_TEXT else (self.encode_run(chunk) if chunk else [])
        return out

    def encode_run(self, text):
        """SentencePiece BPE with the dummy prefix and byte fallback: merge the adjacent pair whose concatenation is
        a piece of highest score, leftmost first, until none is."""
        out = []
        # A newline is no piece's character (it is the byte piece <0x0A>, which merges with nothing), so the lines
        # are merged apart: the same result, faster.
        for line in re.split("(\n)", "\u2581" + text.replace(" ", "\u2581")):
            out += self.merge(line) if line else []
        return out

    def merge(self, s):
        parts = []
        for ch in s:
            if ch in self.index:
                parts.append(ch)
            else:
                parts += [f"<0x{b:02X}>" for b in ch.encode("utf-8")]
        while True:
            best, at = None, -1
            for i in range(len(parts) - 1):
                m = parts[i] + parts[i + 1]
                j = self.index.get(m)
                if j is not None and self.types[j] == 1 and (best is None or self.scores[j] > best):
                    best, at = self.scores[j], i
            if at < 0:
                break
            parts[at:at + 2] = [parts[at] + parts[at + 1]]
        return [self.index[p] for p in parts]


# ---------------------------------------------------------------------------------------------------------- Llama-3
class Llama3:
    """tiktoken-style byte-level BPE: `ranks` maps byte strings to ids (= merge ranks)."""

    def __init__(self, data, code):
        self.ranks = {}
        for line in data.decode("ascii").splitlines():
            if line:
                token, rank = line.split()
                self.ranks[base64.b64decode(token)] = int(rank)
        m = re.search(r'pat_str = r"(.*)"  # noqa', code)
        if not m:
            sys.exit(f"{LLAMA3_CODE}: no pat_str; refused")
        self.pattern = regex.compile(m.group(1))
        names = re.search(r"special_tokens = \[(.*?)\]", code, re.S).group(1)
        names = re.findall(r'"(<\|[a-z_0-9]+\|>)"', names)
        self.special = {name: len(self.ranks) + i for i, name in enumerate(names)}
        self.cache = {}

    def bpe(self, piece):
        if piece in self.ranks:
            return [self.ranks[piece]]
        if piece in self.cache:
            return self.cache[piece]
        parts = [piece[i:i + 1] for i in range(len(piece))]
        while len(parts) > 1:
            best, at = None, -1
            for i in range(len(parts) - 1):
                r = self.ranks.get(parts[i] + parts[i + 1])
                if r is not None and (best is None or r < best):
                    best, at = r, i
            if at < 0:
                break
            parts[at:at + 2] = [parts[at] + parts[at + 1]]
        ids = [self.ranks[p] for p in parts]
        self.cache[piece] = ids
        return ids

    def encode(self, text):
        return [t for piece in self.pattern.findall(text) for t in self.bpe(piece.encode("utf-8"))]

    def encode_with_special(self, text):
        """Text whose <|...|> names are the special tokens (as Hugging Face's tokenizer treats added tokens)."""
        out = []
        for chunk in re.split(r"(<\|[a-z_0-9]+\|>)", text):
            out += [self.special[chunk]] if chunk in self.special else (self.encode(chunk) if chunk else [])
        return out


def self_check(l2, l3):
    """Identity of both vocabularies and known encodings from the pinned test files; exits naming a failure."""
    def need(ok, what):
        if not ok:
            sys.exit(f"tokenizer self-check failed: {what}; refused")
    need(len(l2.pieces) == 32000, f"Llama-2 has {len(l2.pieces)} pieces, not 32,000")
    need(l2.pieces[0] == "<unk>" and l2.pieces[1] == "<s>" and l2.pieces[2] == "</s>", "Llama-2 ids 0-2")
    need(l2.pieces[13] == "<0x0A>" and l2.types[13] == Llama2.BYTE, "Llama-2 id 13 = <0x0A>")
    need(l2.pieces[29871] == "\u2581", "Llama-2 id 29871 = U+2581")
    need(len(l3.ranks) == 128000 and sorted(l3.ranks.values()) == list(range(128000)), "Llama-3 ranks 0..127,999")
    need(l3.special.get("<|begin_of_text|>") == 128000, "Llama-3 128000 = <|begin_of_text|>")
    need(l3.special.get("<|eot_id|>") == 128009, "Llama-3 128009 = <|eot_id|>")
    need(l3.special.get("<|start_header_id|>") == 128006, "Llama-3 128006 = <|start_header_id|>")
    need(len(l3.special) == 12, "Llama-3's 12 named special tokens")
    # karpathy/llama2.c @350e04f test.c, test_prompt_encodings (BOS 1 first; the empty string is [1])
    l2_cases = [
        ("", []),
        ("I believe the meaning of life is", [306, 4658, 278, 6593, 310, 2834, 338]),
        ("Simply put, the theory of relativity states that ",
         [3439, 17632, 1925, 29892, 278, 6368, 310, 14215, 537, 5922, 393, 29871]),
        ("A brief message congratulating the team on the launch:\n\n        Hi everyone,\n\n        I just ",
         [319, 11473, 2643, 378, 629, 271, 18099, 278, 3815, 373, 278, 6826, 29901, 13, 13, 4706, 6324, 14332, 29892,
          13, 13, 4706, 306, 925, 29871]),
        ("Translate English to French:\n\n        sea otter => loutre de mer\n        peppermint => menthe poivrée\n"
         "        plush girafe => girafe peluche\n        cheese =>",
         [4103, 9632, 4223, 304, 5176, 29901, 13, 13, 4706, 7205, 4932, 357, 1149, 301, 449, 276, 316, 2778, 13, 4706,
          1236, 407, 837, 524, 1149, 6042, 354, 772, 440, 29878, 1318, 13, 4706, 715, 1878, 330, 3055, 1725, 1149, 330,
          3055, 1725, 4639, 28754, 13, 4706, 923, 968, 1149]),
    ]
    for text, ids in l2_cases:
        if text:
            need(l2.encode(text) == ids, f"Llama-2 encode({text[:30]!r}...) = {l2.encode(text)[:8]}..., test.c {ids[:8]}...")
            need(l2.decode(ids) == text, f"Llama-2 decode of test.c's ids for {text[:30]!r}")
    # meta-llama/llama-models @a9c89c4 models/llama3/tests/api/test_tokenizer.py: test_encode, test_encode_message,
    # test_encode_dialog
    need(l3.encode("This is a test sentence.") == [2028, 374, 264, 1296, 11914, 13], "Llama-3 'This is a test sentence.'")
    need(l3.encode("This is a response.") == [2028, 374, 264, 2077, 13], "Llama-3 'This is a response.'")
    need(l3.encode_with_special("<|start_header_id|>user<|end_header_id|>\n\nThis is a test sentence.<|eot_id|>") ==
         [128006, 882, 128007, 271, 2028, 374, 264, 1296, 11914, 13, 128009], "Llama-3 test_encode_message")
    need(l3.encode("system") == [9125] and l3.encode("assistant") == [78191], "Llama-3 'system', 'assistant'")
    return len(l2_cases) - 1 + 4


# ------------------------------------------------------------------------------------------------------------- runs
def measure_run(git_dir, commit, system, model, scenario, l2, l3):
    path = accuracy_log_path(system, model, scenario)
    text = show(git_dir, commit, path)
    if text is None:
        sys.exit(f"{path} @{commit}: missing; refused")
    n2 = n3 = eot = capped = 0
    counts = []
    for i, e in enumerate(json.loads(text)):
        ids = answer_ids(e)
        if not ids or ids[0] != 1 or len(ids) != e["token_count"]:
            sys.exit(f"{path} @{commit}: answer {i}: not BOS-first Llama-2 ids of token_count; refused "
                     "(tables/scripts/krai_token_unit.py --check says why)")
        try:
            answer = l2.decode(ids[1:])
        except (ValueError, UnicodeDecodeError) as err:
            sys.exit(f"{path} @{commit}: answer {i} (qsl_idx {e['qsl_idx']}): {err}; refused")
        if l2.encode(answer) != ids[1:]:
            sys.exit(f"{path} @{commit}: answer {i} (qsl_idx {e['qsl_idx']}): the decoded text does not re-encode to "
                     "the same Llama-2 ids; refused")
        if "<|" in answer:
            sys.exit(f"{path} @{commit}: answer {i}: holds a special token's name as text; refused")
        k3 = len(l3.encode(answer))
        stopped = k3 < MAX_NEW_TOKENS
        n2 += len(ids) - 1
        n3 += k3
        eot += stopped
        capped += not stopped
        if not stopped:
            print(f"  {path}: answer {i} (qsl_idx {e['qsl_idx']}): {len(ids)} Llama-2 ids, {k3} Llama-3 tokens: at the cap")
        counts.append((len(ids), k3))
    if not counts:
        sys.exit(f"{path} @{commit}: no answers; refused")
    return {"path": path, "answers": len(counts), "n2": n2, "n3": n3, "eot": eot, "capped": capped,
            "mean2": sum(c[0] for c in counts) / len(counts), "mean3": n3 / len(counts),
            "rho": n2 / (n3 + eot), "rho_text": n2 / n3}


def template_tokens(l2, l3):
    """Tokens each chat template adds around a prompt's system text and question: the whole prompt's count less the
    two texts' own (each encoded alone), the same for every probe or refused. (Llama-2 with, without system; Llama-3
    with, without)."""
    found = []
    for t2, t3 in zip(LLAMA2_TEMPLATES, LLAMA3_TEMPLATES):
        per = set()
        for system, question in PROBES:
            args = (system, question) if "{}" in t2.split("{}", 1)[1] else (question,)
            # Llama-2 texts as they sit in the prompt: a line's start has no U+2581 before it (the system text, and
            # the question after it), the question after "[INST] " has one (SentencePiece merges no piece across a
            # newline, and the texts' own pieces then match the prompt's).
            own2 = (sum(len(l2.merge(a.replace(" ", "\u2581"))) for a in args) if len(args) == 2
                    else len(l2.encode_run(args[0])))
            own3 = sum(len(l3.encode(a)) for a in args)
            per.add((1 + len(l2.encode(t2.format(*args))) + 1 - own2, 1 + len(l3.encode_with_special(t3.format(*args))) - own3))
        if len(per) != 1:
            sys.exit(f"template token counts differ between probes: {per}; refused")
        found.append(per.pop())
    return found


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--git-dir", default=MIRROR)
    ap.add_argument("--check", action="store_true", help="measure and print, write nothing")
    args = ap.parse_args()
    l2 = Llama2(blob(LLAMA2_GIT, LLAMA2_COMMIT, LLAMA2_PATH))
    l3 = Llama3(blob(LLAMA3_GIT, LLAMA3_COMMIT, LLAMA3_PATH), blob(LLAMA3_GIT, LLAMA3_COMMIT, LLAMA3_CODE).decode())
    checks = self_check(l2, l3)
    print(f"tokenizers: Llama-2 {len(l2.pieces):,} pieces, Llama-3 {len(l3.ranks):,} + {len(l3.special)} named special "
          f"tokens; {checks} pinned test encodings pass")
    rows = load(MEASUREMENTS)
    c = {name: i for i, name in enumerate(rows[0])}
    runs, row_run = {}, {}
    for r, key in krai_runs(rows, c):
        if key not in runs:
            runs[key] = measure_run(args.git_dir, *key, l2, l3)
        row_run[r[c["id"]]] = key
    print(f"{'run (system/model/scenario)':58} answers  mean L2 ids  mean L3 text  eot  rho_text  rho")
    for key, v in runs.items():
        print(f"{'/'.join(key[1:]):58} {v['answers']:7d} {v['mean2']:12.2f} {v['mean3']:13.2f} {v['eot']:4d} "
              f"{v['rho_text']:9.4f} {v['rho']:.4f}")
    n2 = sum(v["n2"] for v in runs.values())
    n3 = sum(v["n3"] for v in runs.values())
    ne = sum(v["eot"] for v in runs.values())
    print(f"all {len(runs)} runs: {sum(v['answers'] for v in runs.values())} answers, rho_text {n2 / n3:.4f}, "
          f"rho {n2 / (n3 + ne):.4f}")
    (t2s, t3s), (t2n, t3n) = template_tokens(l2, l3)
    pooled = n2 / n3
    with_sys = t3s + (PROMPT_LLAMA2_MEAN - t2s) / pooled
    without = t3n + (PROMPT_LLAMA2_MEAN - t2n) / pooled
    prompt = round((with_sys + without) / 2)
    print(f"chat templates: Llama-2 reference {t2s} tokens with a system prompt, {t2n} without; Llama-3.1 (Krai) {t3s}, "
          f"{t3n}; prompt {t3s} + ({PROMPT_LLAMA2_MEAN} - {t2s}) / {pooled:.4f} = {with_sys:.1f} to {t3n} + "
          f"({PROMPT_LLAMA2_MEAN} - {t2n}) / {pooled:.4f} = {without:.1f}: {prompt} tokens (the midpoint)")
    input_note = (f"{INPUT_MARKER} the engine's prompt = Krai's Llama-3.1 chat template + the prompt's text in Llama-3 "
                  f"tokens. MLPerf's mean {PROMPT_LLAMA2_MEAN} Llama-2 prompt tokens hold the reference template's "
                  f"{t2s} tokens with a system prompt ({t2n} without: mlcommons/inference @b66003e "
                  f"language/llama2-70b/processorca.py, the tokenizer's BOS, '<s>[INST] <<SYS>>...[/INST]', id 29871 "
                  f"appended); the text's Llama-2 tokens are converted at the ratio measured on all {len(runs)} runs' "
                  f"answers' text, {n2:,} / {n3:,} = {pooled:.4f} Llama-2 per Llama-3 token (the same OpenOrca set, the "
                  f"same English; no end-of-turn in a prompt's text); Krai's template (krai/axs2mlperf @5db3f2a "
                  f"convert_openorca/convert_openorca.py, llama3_1, with <|begin_of_text|>) adds {t3s} tokens ({t3n} "
                  f"without a system prompt): {t3s} + ({PROMPT_LLAMA2_MEAN} - {t2s}) / {pooled:.4f} = {with_sys:.1f} "
                  f"if every prompt has a system prompt, {t3n} + ({PROMPT_LLAMA2_MEAN} - {t2n}) / {pooled:.4f} = "
                  f"{without:.1f} if none has; the share is not published, so input_tokens = the midpoint, {prompt} "
                  f"(+-{(without - with_sys) / 2:.1f}; was 179 = 222.3 x 3.17 / 3.94, the generic-English ratio of "
                  f"arXiv 2407.21783 section 3.2 applied to the template too). {INPUT_END}")
    if args.check:
        print(f"{len(row_run)} rows; nothing written (--check)")
        return
    ratio_notes = {}
    for r in rows[1:]:
        if r and r[c["id"]] in row_run:
            v = runs[row_run[r[c["id"]]]]
            rho = f"{v['rho']:.4f}"
            ratio_notes[r[c["id"]]] = (f"{MARKER} its TEST06 log's {v['answers']} answers ({v['path']}), decoded from Llama-2 ids and "
                    f"re-encoded with Llama-3's tokenizer (llama2.c @{LLAMA2_COMMIT[:7]} tokenizer.model; llama-models "
                    f"@{LLAMA3_COMMIT[:7]} {LLAMA3_PATH}): {v['n2']:,} Llama-2 tokens after the BOS (mean "
                    f"{v['mean2']:.2f} ids with it) against {v['n3']:,} Llama-3 tokens of text (mean {v['mean3']:.2f}) "
                    f"+ {v['eot']} end-of-turn tokens the engine generated to stop ({v['capped']} answers at the "
                    f"{MAX_NEW_TOKENS}-token cap): output_token_ratio = {v['n2']:,} / {v['n3'] + v['eot']:,} = {rho} "
                    f"(text alone {v['rho_text']:.4f}), output_token_offset 1 (the BOS), so O_eng = (O - 1) / {rho} "
                    f"counts the end-of-turn step (docs/krai-token-unit.md section 5). {END}")
            r[c["output_token_ratio"]] = rho
            r[c["input_tokens"]] = str(prompt)
            r[c["notes"]] = OLD_INPUT.sub(lambda m: ("no mean of that count is published: input_tokens from the prompt "
                                                     "count below (docs/krai-open-dense.md);")
                                          if m.group(0).startswith("no mean")
                                          else "input: input_tokens from the prompt count below "
                                               "(docs/krai-open-dense.md rule 7);",
                                          r[c["notes"]])
    set_marked_notes(rows, c, dict.fromkeys(row_run, input_note), INPUT_MARKER, INPUT_END)
    set_marked_notes(rows, c, ratio_notes, MARKER, END)
    save(MEASUREMENTS, rows)
    print(f"{MEASUREMENTS}: output_token_ratio measured, input_tokens {prompt}, on {len(row_run)} rows of {len(runs)} runs")


if __name__ == "__main__":
    main()
