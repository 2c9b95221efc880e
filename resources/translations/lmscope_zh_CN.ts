<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
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
