<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>Export</name>
    <message>
        <source>%1: cannot write: %2</source>
        <translation>%1：无法写入：%2</translation>
    </message>
    <message>
        <source>%1: could not render the image</source>
        <translation>%1：无法渲染图像</translation>
    </message>
    <message>
        <source>%1: no chart to save</source>
        <translation>%1：没有可保存的图表</translation>
    </message>
    <message>
        <source>%1: nothing to save</source>
        <translation>%1：没有可保存的内容</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::EngineWorker</name>
    <message>
        <source>No model is loaded.</source>
        <translation>尚未加载模型。</translation>
    </message>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>The prompt encodes to no tokens.</source>
        <translation>提示词编码后没有任何词元。</translation>
    </message>
    <message>
        <source>Nothing to decode yet: prefill a prompt first.</source>
        <translation>还没有可解码的内容：请先预填充提示词。</translation>
    </message>
    <message>
        <source>Opening %1…</source>
        <translation>正在打开 %1…</translation>
    </message>
    <message>
        <source>%1 failed: %2</source>
        <translation>%1 失败：%2</translation>
    </message>
    <message>
        <source>Loading the model</source>
        <translation>加载模型</translation>
    </message>
    <message>
        <source>Sampling settings</source>
        <translation>采样设置</translation>
    </message>
    <message>
        <source>Prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Forcing a token</source>
        <translation>强制指定词元</translation>
    </message>
    <message>
        <source>Rewind</source>
        <translation>回退</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Saving the trace</source>
        <translation>保存跟踪</translation>
    </message>
    <message>
        <source>Opening the trace</source>
        <translation>打开跟踪</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::MainWindow</name>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Loaded %1 in %2 ms</source>
        <translation>已加载 %1，用时 %2 毫秒</translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>Cannot open model</source>
        <translation>无法打开模型</translation>
    </message>
    <message>
        <source>Could not open %1.</source>
        <translation>无法打开 %1。</translation>
    </message>
    <message>
        <source>About lmscope</source>
        <translation>关于 lmscope</translation>
    </message>
    <message>
        <source>&lt;h3&gt;lmscope %1&lt;/h3&gt;&lt;p&gt;Runs a language model one step at a time and shows what happens inside: tokens, attention, the KV cache, logits and sampling.&lt;/p&gt;&lt;p&gt;Built with Qt %2.&lt;/p&gt;</source>
        <translation>&lt;h3&gt;lmscope %1&lt;/h3&gt;&lt;p&gt;逐步运行语言模型，展示其内部发生的一切：词元、注意力、KV 缓存、logits 与采样。&lt;/p&gt;&lt;p&gt;基于 Qt %2 构建。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;Open Model…</source>
        <translation>打开模型(&amp;O)…</translation>
    </message>
    <message>
        <source>Open a GGUF model file</source>
        <translation>打开 GGUF 模型文件</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;About lmscope</source>
        <translation>关于 lmscope(&amp;A)</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Metadata</source>
        <translation>元数据</translation>
    </message>
    <message>
        <source>No model</source>
        <translation>未加载模型</translation>
    </message>
    <message>
        <source>Open a GGUF file (Ctrl+O) or drop one on this window.</source>
        <translation>打开一个 GGUF 文件（Ctrl+O），或将文件拖放到此窗口。</translation>
    </message>
    <message>
        <source>Open GGUF Model</source>
        <translation>打开 GGUF 模型</translation>
    </message>
    <message>
        <source>GGUF models (*.gguf);;All files (*)</source>
        <translation>GGUF 模型 (*.gguf);;所有文件 (*)</translation>
    </message>
    <message>
        <source>No recent files</source>
        <translation>没有最近打开的文件</translation>
    </message>
    <message>
        <source>&amp;Clear Menu</source>
        <translation>清空菜单(&amp;C)</translation>
    </message>
    <message>
        <source>System Default</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Saved the trace to %1</source>
        <translation>跟踪已保存到 %1</translation>
    </message>
    <message>
        <source>%1 (replay) — lmscope</source>
        <translation>%1（回放）— lmscope</translation>
    </message>
    <message>
        <source>Opened the trace %1: press Step (Space) to walk through it</source>
        <translation>已打开跟踪 %1：按“单步”（空格键）逐步查看</translation>
    </message>
    <message>
        <source>&amp;Session</source>
        <translation>会话(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Export Chart</source>
        <translation>导出图表(&amp;E)</translation>
    </message>
    <message>
        <source>Open &amp;Trace…</source>
        <translation>打开跟踪(&amp;T)…</translation>
    </message>
    <message>
        <source>Replay a saved trace without its model</source>
        <translation>不加载模型，回放已保存的跟踪</translation>
    </message>
    <message>
        <source>&amp;Save Trace…</source>
        <translation>保存跟踪(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;Presenter Mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>Larger fonts and high contrast, for a projector</source>
        <translation>更大的字体和高对比度，适合投影仪</translation>
    </message>
    <message>
        <source>Chart as PNG…</source>
        <translation>图表另存为 PNG…</translation>
    </message>
    <message>
        <source>Chart as PDF…</source>
        <translation>图表另存为 PDF…</translation>
    </message>
    <message>
        <source>Data as CSV…</source>
        <translation>数据另存为 CSV…</translation>
    </message>
    <message>
        <source>Data as JSON…</source>
        <translation>数据另存为 JSON…</translation>
    </message>
    <message>
        <source>Open Trace</source>
        <translation>打开跟踪</translation>
    </message>
    <message>
        <source>lmscope traces (*.lmtrace *.safetensors);;All files (*)</source>
        <translation>lmscope 跟踪文件 (*.lmtrace *.safetensors);;所有文件 (*)</translation>
    </message>
    <message>
        <source>There is no live session to save.</source>
        <translation>没有可保存的实时会话。</translation>
    </message>
    <message>
        <source>Save Trace</source>
        <translation>保存跟踪</translation>
    </message>
    <message>
        <source>lmscope traces (*.lmtrace)</source>
        <translation>lmscope 跟踪文件 (*.lmtrace)</translation>
    </message>
    <message>
        <source>Engine error</source>
        <translation>引擎错误</translation>
    </message>
    <message>
        <source>The engine reported an error.</source>
        <translation>引擎报告了一个错误。</translation>
    </message>
    <message>
        <source>Export Chart</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
    <message>
        <source>%1: unknown export format (use .png, .pdf, .csv or .json)</source>
        <translation>%1：未知的导出格式（请使用 .png、.pdf、.csv 或 .json）</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::SamplingPanel</name>
    <message>
        <source>Temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>Top-k</source>
        <translation>Top-k</translation>
    </message>
    <message>
        <source>Top-p</source>
        <translation>Top-p</translation>
    </message>
    <message>
        <source>Min-p</source>
        <translation>Min-p</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Backend</source>
        <translation>后端</translation>
    </message>
    <message>
        <source>0 picks the most probable token (greedy)</source>
        <translation>0 表示总是选择概率最高的词元（贪心）</translation>
    </message>
    <message>
        <source>Keep the k most probable tokens (0 = off)</source>
        <translation>保留概率最高的 k 个词元（0 = 关闭）</translation>
    </message>
    <message>
        <source>Keep the smallest set whose probability reaches p (1 = off)</source>
        <translation>保留累计概率达到 p 的最小集合（1 = 关闭）</translation>
    </message>
    <message>
        <source>Drop tokens below min-p times the best one (0 = off)</source>
        <translation>丢弃概率低于最高概率 min-p 倍的词元（0 = 关闭）</translation>
    </message>
    <message>
        <source>all cores</source>
        <translation>全部核心</translation>
    </message>
    <message>
        <source>CPU threads (applied by reloading the model)</source>
        <translation>CPU 线程数（重新加载模型后生效）</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::SessionView</name>
    <message>
        <source>Stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>Open a model (Ctrl+O) or a trace (Ctrl+Shift+O) first.</source>
        <translation>请先打开模型（Ctrl+O）或跟踪文件（Ctrl+Shift+O）。</translation>
    </message>
    <message>
        <source>The reply has ended; Reset to start again.</source>
        <translation>回复已结束；请重置后重新开始。</translation>
    </message>
    <message>
        <source>End of the trace</source>
        <translation>跟踪已到末尾</translation>
    </message>
    <message>
        <source>Replay: %1</source>
        <translation>回放：%1</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>KV %1</source>
        <translation>KV %1</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s)</source>
        <translation>
            <numerusform>%n 个词元</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 tokens/s</source>
        <translation>%1 词元/秒</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>单步</translation>
    </message>
    <message>
        <source>Prefill the prompt, then decode one token per step (Space)</source>
        <translation>先预填充提示词，之后每步解码一个词元（空格键）</translation>
    </message>
    <message>
        <source>Play</source>
        <translation>播放</translation>
    </message>
    <message>
        <source>Step repeatedly at the chosen speed (P)</source>
        <translation>按所选速度连续单步（P）</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>Stop the running step (Esc)</source>
        <translation>停止正在运行的步骤（Esc）</translation>
    </message>
    <message>
        <source>Reset</source>
        <translation>重置</translation>
    </message>
    <message>
        <source>Empty the KV cache and start from the prompt again (Ctrl+R)</source>
        <translation>清空 KV 缓存，从提示词重新开始（Ctrl+R）</translation>
    </message>
    <message>
        <source>Tokens</source>
        <translation>词元</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Attention Grid</source>
        <translation>注意力网格</translation>
    </message>
    <message>
        <source>Logits</source>
        <translation>Logits</translation>
    </message>
    <message>
        <source>KV Cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>Timeline</source>
        <translation>时间线</translation>
    </message>
    <message>
        <source>Sampling</source>
        <translation>采样</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::SpecText</name>
    <message>
        <source>unknown architecture</source>
        <translation>未知架构</translation>
    </message>
    <message>
        <source>GGUF v%1</source>
        <translation>GGUF v%1</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>层数</translation>
    </message>
    <message>
        <source>Transformer blocks, each with attention and a feed-forward network</source>
        <translation>Transformer 块的数量，每块包含注意力和前馈网络</translation>
    </message>
    <message>
        <source>Embedding width</source>
        <translation>嵌入维度</translation>
    </message>
    <message>
        <source>Numbers per token in the residual stream</source>
        <translation>残差流中每个词元的数值个数</translation>
    </message>
    <message>
        <source>Query heads</source>
        <translation>查询头</translation>
    </message>
    <message>
        <source>Attention heads per layer</source>
        <translation>每层的注意力头数</translation>
    </message>
    <message>
        <source>KV heads</source>
        <translation>KV 头</translation>
    </message>
    <message>
        <source>Key/value heads per layer; query heads share them</source>
        <translation>每层的键/值头数；查询头共享它们</translation>
    </message>
    <message>
        <source>MHA</source>
        <translation>MHA</translation>
    </message>
    <message>
        <source>Multi-head attention: every query head has its own keys and values</source>
        <translation>多头注意力：每个查询头都有自己的键和值</translation>
    </message>
    <message>
        <source>MQA</source>
        <translation>MQA</translation>
    </message>
    <message>
        <source>Multi-query attention: all query heads share one key/value head</source>
        <translation>多查询注意力：所有查询头共享一个键/值头</translation>
    </message>
    <message>
        <source>GQA %1:1</source>
        <translation>GQA %1:1</translation>
    </message>
    <message>
        <source>Grouped-query attention: %1 query heads share each key/value head</source>
        <translation>分组查询注意力：每 %1 个查询头共享一个键/值头</translation>
    </message>
    <message>
        <source>Attention</source>
        <translation>注意力</translation>
    </message>
    <message>
        <source>Head size</source>
        <translation>头维度</translation>
    </message>
    <message>
        <source>Numbers per query, key and value vector</source>
        <translation>每个查询、键、值向量的数值个数</translation>
    </message>
    <message>
        <source>Feed-forward width</source>
        <translation>前馈网络宽度</translation>
    </message>
    <message>
        <source>Vocabulary</source>
        <translation>词表大小</translation>
    </message>
    <message>
        <source>Tokens the model knows</source>
        <translation>模型认识的词元数</translation>
    </message>
    <message>
        <source>Context length</source>
        <translation>上下文长度</translation>
    </message>
    <message>
        <source>Positions the model was trained for</source>
        <translation>模型训练时的位置数</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数量</translation>
    </message>
    <message>
        <source>Numbers in all tensors together</source>
        <translation>所有张量中数值的总个数</translation>
    </message>
    <message>
        <source>Tensors</source>
        <translation>张量</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Bytes of tensor data (file: %1)</source>
        <translation>张量数据的字节数（文件：%1）</translation>
    </message>
    <message>
        <source>KV cache per token</source>
        <translation>每词元 KV 缓存</translation>
    </message>
    <message>
        <source>Keys and values of every layer for one token, stored as 16-bit floats</source>
        <translation>一个词元在所有层的键和值，以 16 位浮点数存储</translation>
    </message>
    <message>
        <source>RoPE base</source>
        <translation>RoPE 基数</translation>
    </message>
    <message>
        <source>RMS norm ε</source>
        <translation>RMS 归一化 ε</translation>
    </message>
    <message>
        <source>Tokenizer</source>
        <translation>分词器</translation>
    </message>
    <message>
        <source>lmscope can run this model</source>
        <translation>lmscope 可以运行此模型</translation>
    </message>
    <message>
        <source>lmscope runs llama and qwen2 models with complete metadata</source>
        <translation>lmscope 可运行元数据完整的 llama 和 qwen2 模型</translation>
    </message>
    <message>
        <source>Runs in lmscope</source>
        <translation>可在 lmscope 中运行</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
</context>
<context>
    <name>lmscope::gui::StepControls</name>
    <message>
        <source>Prompt</source>
        <translation>提示词</translation>
    </message>
    <message>
        <source>Type a prompt, then press Step (Space) with the focus outside this box.</source>
        <translation>输入提示词，然后在此框外按“单步”（空格键）；在框内可按 Ctrl+Enter。</translation>
    </message>
    <message>
        <source>Play speed</source>
        <translation>播放速度</translation>
    </message>
    <message numerus="yes">
        <source>%n step(s)/s</source>
        <translation>
            <numerusform>每秒 %n 步</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::AttentionGrid</name>
    <message>
        <source>L%1</source>
        <translation>L%1</translation>
    </message>
    <message>
        <source>No attention to show yet: run a step</source>
        <translation>还没有可显示的注意力：请先运行一步</translation>
    </message>
    <message>
        <source>KV %1</source>
        <translation>KV %1</translation>
    </message>
    <message>
        <source>H%1</source>
        <translation>H%1</translation>
    </message>
    <message>
        <source>Layer %1 · head %2 · KV head %3</source>
        <translation>第 %1 层 · 头 %2 · KV 头 %3</translation>
    </message>
    <message>
        <source>&apos;%1&apos; (%2) looks most at &apos;%3&apos; (%4): %5</source>
        <translation>“%1”(%2) 最关注“%3”(%4)：%5</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::AttentionHeatmap</name>
    <message>
        <source>Mean over heads</source>
        <translation>各头平均</translation>
    </message>
    <message>
        <source>Average the weights of every head of the layer</source>
        <translation>对该层所有头的权重取平均</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Head</source>
        <translation>头</translation>
    </message>
    <message>
        <source>key (attended-to token)</source>
        <translation>键（被关注的词元）</translation>
    </message>
    <message>
        <source>query (attending token)</source>
        <translation>查询（发出关注的词元）</translation>
    </message>
    <message>
        <source>weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>KV head %1, shared by query heads %2 (GQA)</source>
        <translation>KV 头 %1，由查询头 %2 共享（GQA）</translation>
    </message>
    <message>
        <source>each head has its own keys and values (MHA)</source>
        <translation>每个头都有自己的键和值（MHA）</translation>
    </message>
    <message>
        <source>Layer %1 · mean over heads</source>
        <translation>第 %1 层 · 各头平均</translation>
    </message>
    <message>
        <source>Layer %1 · head %2</source>
        <translation>第 %1 层 · 头 %2</translation>
    </message>
    <message>
        <source>what &apos;%1&apos; (position %2) attends to</source>
        <translation>“%1”（位置 %2）关注的内容</translation>
    </message>
    <message>
        <source>query &apos;%1&apos; (%2) → key &apos;%3&apos; (%4)</source>
        <translation>查询“%1”(%2) → 键“%3”(%4)</translation>
    </message>
    <message>
        <source>masked (the future is hidden)</source>
        <translation>已遮蔽（未来不可见）</translation>
    </message>
    <message>
        <source>not recorded</source>
        <translation>未记录</translation>
    </message>
    <message>
        <source>Attention, layer %1, mean over heads</source>
        <translation>注意力，第 %1 层，各头平均</translation>
    </message>
    <message>
        <source>Attention, layer %1, head %2</source>
        <translation>注意力，第 %1 层，头 %2</translation>
    </message>
    <message>
        <source>Log colours</source>
        <translation>对数配色</translation>
    </message>
    <message>
        <source>Colour weights on a logarithmic scale, so small weights show too</source>
        <translation>按对数刻度为权重着色，小权重也能看清</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::FilteredTable</name>
    <message>
        <source>Filter (any column)</source>
        <translation>筛选（任意列）</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 / %2</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::KvChart</name>
    <message>
        <source>tokens in the cache</source>
        <translation>缓存中的词元数</translation>
    </message>
    <message>
        <source>bytes held</source>
        <translation>占用字节</translation>
    </message>
    <message>
        <source>formula</source>
        <translation>公式</translation>
    </message>
    <message>
        <source>formula: 2 (K and V) × layers × KV heads × head dim × tokens × bytes per value</source>
        <translation>公式：2（K 和 V）× 层数 × KV 头数 × 头维度 × 词元数 × 每个值的字节数</translation>
    </message>
    <message>
        <source>measured, all layers</source>
        <translation>实测，所有层</translation>
    </message>
    <message>
        <source>prefill step</source>
        <translation>预填充步</translation>
    </message>
    <message>
        <source>decode step</source>
        <translation>解码步</translation>
    </message>
    <message>
        <source>measured, layer %1</source>
        <translation>实测，第 %1 层</translation>
    </message>
    <message>
        <source>KV cache</source>
        <translation>KV 缓存</translation>
    </message>
    <message>
        <source>KV cache: %1 holding %2 tokens (%3)</source>
        <translation>KV 缓存：%1，容纳 %2 个词元（%3）</translation>
    </message>
    <message>
        <source>KV cache bytes per step</source>
        <translation>每步的 KV 缓存字节数</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::LogitsView</name>
    <message>
        <source>raw</source>
        <translation>原始</translation>
    </message>
    <message>
        <source>repetition penalty</source>
        <translation>重复惩罚</translation>
    </message>
    <message>
        <source>temperature</source>
        <translation>温度</translation>
    </message>
    <message>
        <source>top-k</source>
        <translation>top-k</translation>
    </message>
    <message>
        <source>top-p</source>
        <translation>top-p</translation>
    </message>
    <message>
        <source>min-p</source>
        <translation>min-p</translation>
    </message>
    <message>
        <source>greedy</source>
        <translation>贪心</translation>
    </message>
    <message>
        <source>sampled</source>
        <translation>采样</translation>
    </message>
    <message>
        <source>forced</source>
        <translation>强制</translation>
    </message>
    <message>
        <source>prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>probability</source>
        <translation>概率</translation>
    </message>
    <message>
        <source>before the filters</source>
        <translation>过滤前</translation>
    </message>
    <message>
        <source>after the filters</source>
        <translation>过滤后</translation>
    </message>
    <message>
        <source>%1 · logit %2 · filtered out</source>
        <translation>%1 · logit %2 · 已被过滤</translation>
    </message>
    <message>
        <source>%1 → %2 · logit %3</source>
        <translation>%1 → %2 · logit %3</translation>
    </message>
    <message>
        <source>No distribution yet: run a step</source>
        <translation>尚无分布：请先运行一步</translation>
    </message>
    <message>
        <source>after the filters (none)</source>
        <translation>过滤后（无）</translation>
    </message>
    <message>
        <source>after %1 (%2 tokens left)</source>
        <translation>%1 之后（剩余 %2 个词元）</translation>
    </message>
    <message>
        <source>Next token &lt;b&gt;&apos;%1&apos;&lt;/b&gt; (%2), p = %3 → %4 · entropy %5 nats</source>
        <translation>下一个词元 &lt;b&gt;“%1”&lt;/b&gt;（%2），p = %3 → %4 · 熵 %5 奈特</translation>
    </message>
    <message>
        <source>Next-token candidates</source>
        <translation>下一个词元的候选</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::MetadataModel</name>
    <message>
        <source>Key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::TensorTableModel</name>
    <message>
        <source>%1 elements</source>
        <translation>%1 个元素</translation>
    </message>
    <message>
        <source>%1 bytes</source>
        <translation>%1 字节</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Type</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Shape</source>
        <translation>形状</translation>
    </message>
    <message>
        <source>Bytes</source>
        <translation>字节</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::Timeline</name>
    <message>
        <source>No steps yet</source>
        <translation>尚无步骤</translation>
    </message>
    <message>
        <source>prefill
%1 tokens</source>
        <translation>预填充
%1 个词元</translation>
    </message>
    <message>
        <source>%1 ms</source>
        <translation>%1 毫秒</translation>
    </message>
    <message>
        <source>prefill</source>
        <translation>预填充</translation>
    </message>
    <message>
        <source>decode</source>
        <translation>解码</translation>
    </message>
    <message>
        <source>Step %1 · %2 · positions %3–%4&lt;br&gt;forward %5 ms · sampling %6 ms&lt;br&gt;click to rewind here</source>
        <translation>第 %1 步 · %2 · 位置 %3–%4&lt;br&gt;前向 %5 毫秒 · 采样 %6 毫秒&lt;br&gt;点击回退到此处</translation>
    </message>
    <message>
        <source>Branch</source>
        <translation>分支</translation>
    </message>
    <message>
        <source>%1: … &apos;%2&apos; (%3 steps)</source>
        <translation>%1：…“%2”（%3 步）</translation>
    </message>
    <message>
        <source>prefill %1 ms for %2 tokens (%3 ms/token)</source>
        <translation>预填充 %1 毫秒，共 %2 个词元（%3 毫秒/词元）</translation>
    </message>
    <message>
        <source>decode %1 ms/token over %2 steps</source>
        <translation>解码 %1 毫秒/词元，共 %2 步</translation>
    </message>
</context>
<context>
    <name>lmscope::widgets::TokenStrip</name>
    <message>
        <source>prompt</source>
        <translation>提示</translation>
    </message>
    <message>
        <source>generated (greedy)</source>
        <translation>生成（贪心）</translation>
    </message>
    <message>
        <source>generated (sampled)</source>
        <translation>生成（采样）</translation>
    </message>
    <message>
        <source>forced by you</source>
        <translation>由你强制指定</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;id %2 · position %3&lt;br&gt;piece %4&lt;br&gt;bytes %5–%6 · %7</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;&lt;br&gt;ID %2 · 位置 %3&lt;br&gt;片段 %4&lt;br&gt;字节 %5–%6 · %7</translation>
    </message>
    <message>
        <source>byte fallback: this token is a raw byte, not a whole character</source>
        <translation>字节回退：此词元是一个原始字节，而非完整字符</translation>
    </message>
    <message>
        <source>generated</source>
        <translation>生成</translation>
    </message>
    <message>
        <source>forced</source>
        <translation>强制</translation>
    </message>
    <message>
        <source>byte</source>
        <translation>字节</translation>
    </message>
    <message>
        <source>Tokens: %1 (%2 prompt, %3 generated)</source>
        <translation>词元：%1（提示 %2 个，生成 %3 个）</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Runs a language model one step at a time and shows what happens inside.</source>
        <translation>逐步运行语言模型，并展示其内部发生的一切。</translation>
    </message>
    <message>
        <source>A GGUF model to open (default: the sample model).</source>
        <translation>要打开的 GGUF 模型（默认：示例模型）。</translation>
    </message>
</context>
</TS>
