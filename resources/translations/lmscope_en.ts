<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>EngineChange</name>
    <message numerus="yes">
        <source>This setting restarts the engine with a new KV cache. The session holds %n token(s): run them again on the new engine (the same tokens, recomputed), or start empty?</source>
        <translation>
            <numerusform>This setting restarts the engine with a new KV cache. The session holds %n token: run them again on the new engine (the same tokens, recomputed), or start empty?</numerusform>
            <numerusform>This setting restarts the engine with a new KV cache. The session holds %n tokens: run them again on the new engine (the same tokens, recomputed), or start empty?</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::EngineLoader</name>
    <message numerus="yes">
        <source>The prompt is %Ln token(s) long, more than the context of %1 positions.</source>
        <translation>
            <numerusform>The prompt is %Ln token long, more than the context of %1 positions.</numerusform>
            <numerusform>The prompt is %Ln tokens long, more than the context of %1 positions.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::EngineWorker</name>
    <message numerus="yes">
        <source>Re-running %n token(s) on the new engine…</source>
        <translation>
            <numerusform>Re-running %n token on the new engine…</numerusform>
            <numerusform>Re-running %n tokens on the new engine…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::LiveSource</name>
    <message numerus="yes">
        <source>%1 / %Ln token(s)</source>
        <translation>
            <numerusform>%1 / %Ln token</numerusform>
            <numerusform>%1 / %Ln tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n token</numerusform>
            <numerusform>%n tokens</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::SessionStatus</name>
    <message numerus="yes">
        <source>Prefill: layer %1 of %2 · %Ln token(s) · %3 s · %4 tokens/s · Stop (Esc) ends it</source>
        <translation>
            <numerusform>Prefill: layer %1 of %2 · %Ln token · %3 s · %4 tokens/s · Stop (Esc) ends it</numerusform>
            <numerusform>Prefill: layer %1 of %2 · %Ln tokens · %3 s · %4 tokens/s · Stop (Esc) ends it</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::StepControls</name>
    <message numerus="yes">
        <source>%n step(s)/s</source>
        <translation>
            <numerusform>%n step/s</numerusform>
            <numerusform>%n steps/s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::BpeMergesView</name>
    <message numerus="yes">
        <source>%Ln merge(s) in %1</source>
        <translation>
            <numerusform>%Ln merge in %1</numerusform>
            <numerusform>%Ln merges in %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1; %n of them build(s) this word.</source>
        <translation>
            <numerusform>%1; %n of them builds this word.</numerusform>
            <numerusform>%1; %n of them build this word.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::ChatLab</name>
    <message numerus="yes">
        <source>Stopped after %n reply token(s).</source>
        <translation>
            <numerusform>Stopped after %n reply token.</numerusform>
            <numerusform>Stopped after %n reply tokens.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The reply reached the maximum length (%n token(s)).</source>
        <translation>
            <numerusform>The reply reached the maximum length (%n token).</numerusform>
            <numerusform>The reply reached the maximum length (%n tokens).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The model ended its turn after %n token(s).</source>
        <translation>
            <numerusform>The model ended its turn after %n token.</numerusform>
            <numerusform>The model ended its turn after %n tokens.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::ContextCompareLab</name>
    <message numerus="yes">
        <source>Switching off each head of layer %1 in turn (%n run(s) of each prompt)…</source>
        <translation>
            <numerusform>Switching off each head of layer %1 in turn (%n run of each prompt)…</numerusform>
            <numerusform>Switching off each head of layer %1 in turn (%n runs of each prompt)…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::KvOffloadPanel</name>
    <message numerus="yes">
        <source>%Ln token(s)</source>
        <translation>
            <numerusform>%Ln token</numerusform>
            <numerusform>%Ln tokens</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::KvOffloadStrip</name>
    <message numerus="yes">
        <source>device window: last %Ln token(s)</source>
        <translation>
            <numerusform>device window: last %Ln token</numerusform>
            <numerusform>device window: last %Ln tokens</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::MisspellingView</name>
    <message numerus="yes">
        <source>After “%1” (%Ln token(s))</source>
        <translation>
            <numerusform>After “%1” (%Ln token)</numerusform>
            <numerusform>After “%1” (%Ln tokens)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::gui::labs::TokenizerCompareView</name>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n token</numerusform>
            <numerusform>%n tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n character(s)</source>
        <translation>
            <numerusform>%n character</numerusform>
            <numerusform>%n characters</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n byte piece(s)</source>
        <translation>
            <numerusform>%n byte piece</numerusform>
            <numerusform>%n byte pieces</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::AttentionHeatmap</name>
    <message numerus="yes">
        <source>At %Ln token(s) the trace&apos;s memory budget keeps this step&apos;s rows for %1 of %2 heads, and not for this one: the grid shows its summary. Choose the head before the step to keep its rows.</source>
        <translation>
            <numerusform>At %Ln token the trace&apos;s memory budget keeps this step&apos;s rows for %1 of %2 heads, and not for this one: the grid shows its summary. Choose the head before the step to keep its rows.</numerusform>
            <numerusform>At %Ln tokens the trace&apos;s memory budget keeps this step&apos;s rows for %1 of %2 heads, and not for this one: the grid shows its summary. Choose the head before the step to keep its rows.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::KvChart</name>
    <message numerus="yes">
        <source>formula, the %n local layer(s) (window %1)</source>
        <translation>
            <numerusform>formula, the %n local layer (window %1)</numerusform>
            <numerusform>formula, the %n local layers (window %1)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>KV cache: %1 holding %n token(s) (%2)</source>
        <translation>
            <numerusform>KV cache: %1 holding %n token (%2)</numerusform>
            <numerusform>KV cache: %1 holding %n tokens (%2)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::LogitsView</name>
    <message numerus="yes">
        <source>after %1 (%n token(s) left)</source>
        <translation>
            <numerusform>after %1 (%n token left)</numerusform>
            <numerusform>after %1 (%n tokens left)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::Timeline</name>
    <message numerus="yes">
        <source>prefill
%n token(s)</source>
        <translation>
            <numerusform>prefill
%n token</numerusform>
            <numerusform>prefill
%n tokens</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: … &apos;%2&apos; (%n step(s))</source>
        <translation>
            <numerusform>%1: … &apos;%2&apos; (%n step)</numerusform>
            <numerusform>%1: … &apos;%2&apos; (%n steps)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>prefill %1 ms for %n token(s) (%2 ms/token)</source>
        <translation>
            <numerusform>prefill %1 ms for %n token (%2 ms/token)</numerusform>
            <numerusform>prefill %1 ms for %n tokens (%2 ms/token)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>decode %1 ms/token over %n step(s)</source>
        <translation>
            <numerusform>decode %1 ms/token over %n step</numerusform>
            <numerusform>decode %1 ms/token over %n steps</numerusform>
        </translation>
    </message>
</context>
</TS>
