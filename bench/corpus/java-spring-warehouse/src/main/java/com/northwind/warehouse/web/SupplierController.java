package com.northwind.warehouse.web;

import java.io.IOException;
import java.util.List;
import java.util.Map;

import javax.xml.stream.XMLStreamException;

import org.bson.Document;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.multipart.MultipartFile;

import com.northwind.warehouse.service.SupplierSync;

@RestController
public class SupplierController {

    private final SupplierSync sync;

    public SupplierController(SupplierSync sync) {
        this.sync = sync;
    }

    @PostMapping("/api/suppliers/price-list")
    public Map<String, Integer> upload(@RequestParam("file") MultipartFile file, @RequestParam(defaultValue = "false") boolean strict) throws IOException, XMLStreamException {
        int items = strict ? sync.countItemsSafely(file.getInputStream()) : sync.countItems(file.getInputStream());
        return Map.of("items", items);
    }

    @PostMapping("/api/suppliers/delta")
    public Object delta(@RequestBody byte[] body) throws IOException {
        return sync.applyDelta(body);
    }

    @GetMapping("/api/suppliers/prices")
    public List<Document> prices(@RequestParam String supplier, @RequestParam(defaultValue = "false") boolean exact) {
        return exact ? sync.pricesForChecked(supplier) : sync.pricesFor(supplier);
    }
}
