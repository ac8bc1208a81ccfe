package localdynamo.sdk;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.zip.CRC32;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.http.SdkHttpRequest;

/**
 * Asks for an uncompressed answer (so the CRC32 is of the bytes as sent), and records the
 * answer's x-amz-crc32 header with the CRC32 of its body, computed here, before handing
 * the same bytes on to the SDK, whose own check runs after the interceptors.
 */
public final class Crc32Recorder implements ExecutionInterceptor {
    private volatile String header;
    private volatile String contentEncoding;
    private volatile long bodyCrc32 = -1;
    private volatile int bodyLength = -1;

    @Override
    public SdkHttpRequest modifyHttpRequest(Context.ModifyHttpRequest context, ExecutionAttributes attributes) {
        return context.httpRequest().toBuilder().putHeader("Accept-Encoding", "identity").build();
    }

    @Override
    public Optional<InputStream> modifyHttpResponseContent(Context.ModifyHttpResponse context,
                                                           ExecutionAttributes attributes) {
        header = context.httpResponse().firstMatchingHeader("x-amz-crc32").orElse(null);
        contentEncoding = context.httpResponse().firstMatchingHeader("Content-Encoding").orElse(null);
        if (context.responseBody().isEmpty()) {
            return Optional.empty();
        }
        try (InputStream in = context.responseBody().get()) {
            byte[] body = in.readAllBytes();
            CRC32 crc = new CRC32();
            crc.update(body);
            bodyCrc32 = crc.getValue();
            bodyLength = body.length;
            return Optional.of(new ByteArrayInputStream(body));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String header() {
        return header;
    }

    public String contentEncoding() {
        return contentEncoding;
    }

    public long bodyCrc32() {
        return bodyCrc32;
    }

    public int bodyLength() {
        return bodyLength;
    }
}
