#!/usr/bin/env python3
"""Writes gemma3_crosscheck.jsonl: text -> token ids for the Gemma 3 270M sample model's
tokenizer, computed by an independent implementation (Google's `sentencepiece` package), so that
test_sample_tokenizer can hold lmscope's SentencePiece-style tokenizer to it.

The tokenizer is rebuilt from the GGUF itself (pieces, scores and piece types read here with a
minimal GGUF reader) as a SentencePiece BPE model the way Gemma's own tokenizer.model is set up:
byte fallback, digits split, no dummy prefix, whitespace kept as it is (an identity normalizer
that only writes spaces as U+2581). User-defined pieces (runs of newlines, spaces and tabs, HTML
tags, image markers) are matched in the text; control pieces (<bos>, <start_of_turn>, ...) are
not, so their text is ordinary text. No BOS is added. The GGUF keeps the user-defined space runs
as spaces, the text they match before normalization; sentencepiece matches user-defined pieces
in the normalized text, where spaces are U+2581, so they are written that way here.

Usage: pip install sentencepiece==0.2.3 protobuf
       python3 make_gemma3_crosscheck.py ../../../../sample_models/gemma-3-270m-q4_k_m.gguf
"""
import json
import sys

import sentencepiece as spm
from sentencepiece import sentencepiece_model_pb2 as pb

from crosscheck_common import read_gguf_metadata, texts


def gemma_texts():
    return texts() + [
        "<start_of_turn>user\nHi<end_of_turn>", "<bos>", "<start_of_image> a picture", "[multimodal]",
        "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\nend",
        "\t\t\t\tindented\n\t\t\t\t\ttwice", "The year 1984 had 366 days? No: 366 is for 1984's leap.",
        "\u0e2a\u0e27\u0e31\u0e2a\u0e14\u0e35\u0e04\u0e23\u0e31\u0e1a",
        "\u10d2\u10d0\u10db\u10d0\u10e0\u10ef\u10dd\u10d1\u10d0",
        "\u0393\u03b5\u03b9\u03ac \u03c3\u03bf\u03c5 \u039a\u03cc\u03c3\u03bc\u03b5",
        "\u05e9\u05dc\u05d5\u05dd \u05e2\u05d5\u05dc\u05dd", "Xin ch\u00e0o th\u1ebf gi\u1edbi",
        "\u4eca\u5929\u5929\u6c14\u5f88\u597d\uff0c\u6211\u4eec\u53bb\u516c\u56ed\u6563\u6b65\u5427\u3002",
        "\u5927\u8bed\u8a00\u6a21\u578b\u7684\u5206\u8bcd\u5668\u628a\u6587\u5b57\u5207\u6210\u8bcd\u5143\u3002",
        "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466 family", "\U0001F600\U0001F603\U0001F604\U0001F601",
        "\U00020000\U0002A6D6 rare CJK", "\u00bd \u2153 \u2155 \u00b2 \u2074",
        "fn main() {\n    let v: Vec<u8> = vec![1, 2, 3];\n    println!(\"{:?}\", v);\n}\n",
        "    if (x != nullptr && x->next) {\n        return x->next->value;\n    }\n",
        "teh qiuck borwn fox jmups oevr teh lazzy dgo",
    ]


def model_proto(meta):
    assert meta['tokenizer.ggml.model'] == 'llama', meta['tokenizer.ggml.model']
    m = pb.ModelProto()
    types = {1: pb.ModelProto.SentencePiece.NORMAL, 2: pb.ModelProto.SentencePiece.UNKNOWN,
             3: pb.ModelProto.SentencePiece.CONTROL, 4: pb.ModelProto.SentencePiece.USER_DEFINED,
             5: pb.ModelProto.SentencePiece.UNUSED, 6: pb.ModelProto.SentencePiece.BYTE}
    unk = meta['tokenizer.ggml.unknown_token_id']
    for i, (piece, score, kind) in enumerate(zip(meta['tokenizer.ggml.tokens'], meta['tokenizer.ggml.scores'],
                                                 meta['tokenizer.ggml.token_type'])):
        p = m.pieces.add()
        p.piece, p.score = piece.replace(' ', '\u2581') if kind == 4 else piece, score
        p.type = pb.ModelProto.SentencePiece.UNKNOWN if i == unk else types[kind]
    t = m.trainer_spec
    t.model_type = pb.TrainerSpec.BPE
    t.vocab_size = len(m.pieces)
    t.byte_fallback = True
    t.split_digits = True
    t.allow_whitespace_only_pieces = True
    t.unk_id, t.bos_id = unk, meta['tokenizer.ggml.bos_token_id']
    t.eos_id, t.pad_id = meta['tokenizer.ggml.eos_token_id'], meta['tokenizer.ggml.padding_token_id']
    n = m.normalizer_spec
    n.name = 'identity'
    n.add_dummy_prefix = bool(meta['tokenizer.ggml.add_space_prefix'])
    n.remove_extra_whitespaces = False
    n.escape_whitespaces = True
    return m


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    meta = read_gguf_metadata(sys.argv[1])
    sp = spm.SentencePieceProcessor(model_proto=model_proto(meta).SerializeToString())
    rows = gemma_texts()
    assert len(rows) >= 100
    with open('gemma3_crosscheck.jsonl', 'w', encoding='utf-8') as f:
        for text in rows:
            ids = sp.encode(text)
            assert sp.decode(ids) == text, text
            f.write(json.dumps({'text': text, 'ids': ids}, ensure_ascii=True) + '\n')
    print(len(rows), 'strings written')


if __name__ == '__main__':
    main()
